/* timeline_svg: a boot timeline as an SVG picture (phases as bars in time).
 *
 * Bar i spans from mark i-1 to mark i: the time the init spent reaching
 * that phase. The first bar, from 0 to the first mark, is the kernel's own
 * start before it ran the init. Text is escaped for XML, and bytes that XML
 * 1.0 cannot hold (control characters, non-ASCII that may not be UTF-8)
 * become '?', so the file always parses.
 */
#include "gen/cmd/timeline_svg.h"

#include <errno.h>
#include <string.h>

#define SVG_WIDTH 1000
#define SVG_LABEL_WIDTH 330     /* the column of phase names on the left */
#define SVG_RIGHT_MARGIN 70     /* room for the last bar's duration */
#define SVG_ROW 24
#define SVG_TOP 44
#define SVG_LABEL_CHARS 48

struct phase_color {
	const char *phase;
	const char *fill;
};

/* One colour a phase, so pictures of different boots compare at a glance. */
static const struct phase_color phase_colors[] = {
	{ "kernel",  "#b0b0b0" },
	{ "start",   "#8fb3d9" },
	{ "modules", "#e6a04c" },
	{ "rootdev", "#6cbf6c" },
	{ "mounted", "#c77cc7" },
	{ "exec",    "#d96c6c" },
};

static const char *color_of(const char *phase)
{
	for (size_t i = 0; i < sizeof(phase_colors) / sizeof(phase_colors[0]); i++)
		if (strcmp(phase_colors[i].phase, phase) == 0)
			return phase_colors[i].fill;
	return "#7fa7a7";
}

/* At most max characters of s, escaped. */
static void xml_text(FILE *f, const char *s, size_t max)
{
	for (size_t i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else
			fputc(c >= 0x20 && c < 0x7f ? c : '?', f);
	}
	if (strlen(s) > max)
		fputs("...", f);
}

/* A round tick step (1, 2 or 5 times a power of ten microseconds) that
 * gives at most ten ticks over span. */
static unsigned long long tick_step(unsigned long long span)
{
	static const unsigned int mult[] = { 1, 2, 5 };
	unsigned long long base = 1000;   /* 1 ms */

	for (;;) {
		for (size_t i = 0; i < 3; i++)
			if (span / (base * mult[i]) <= 10)
				return base * mult[i];
		base *= 10;
	}
}

static double x_of(unsigned long long usec, unsigned long long span)
{
	return SVG_LABEL_WIDTH +
	       (double)usec * (SVG_WIDTH - SVG_LABEL_WIDTH - SVG_RIGHT_MARGIN) / (double)span;
}

static void axis_write(FILE *f, unsigned long long span, int bottom)
{
	unsigned long long step = tick_step(span);
	int decimals = step >= 1000000 ? 0 : step >= 100000 ? 1 : step >= 10000 ? 2 : 3;

	for (unsigned long long t = 0; t <= span; t += step) {
		double x = x_of(t, span);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/>\n",
			x, SVG_TOP - 6, x, bottom);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\">%.*fs</text>\n",
			x, bottom + 16, decimals, (double)t / 1e6);
	}
}

static void bar_write(FILE *f, int row, const char *phase, const char *detail,
		      unsigned long long from, unsigned long long to, unsigned long long span)
{
	int y = SVG_TOP + row * SVG_ROW;
	double x0 = x_of(from, span), x1 = x_of(to, span);
	double w = x1 - x0 < 1 ? 1 : x1 - x0;

	fprintf(f, "<g><title>");
	xml_text(f, phase, TIMELINE_PHASE_MAX);
	fprintf(f, " at %.6fs", (double)to / 1e6);
	if (*detail) {
		fputs(": ", f);
		xml_text(f, detail, TIMELINE_DETAIL_MAX);
	}
	fprintf(f, "</title>\n<text x=\"8\" y=\"%d\" class=\"label\">", y + 16);
	xml_text(f, phase, TIMELINE_PHASE_MAX);
	if (*detail) {
		fputs(" (", f);
		xml_text(f, detail, SVG_LABEL_CHARS - strlen(phase));
		fputc(')', f);
	}
	fprintf(f, "</text>\n<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n",
		x0, y + 3, w, SVG_ROW - 6, color_of(phase));
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"dur\">%.3fs</text></g>\n",
		x0 + w + 4, y + 16, (double)(to - from) / 1e6);
}

int timeline_svg_write(const struct timeline *tl, FILE *f)
{
	unsigned long long span = 0, prev = 0;
	int rows = (int)tl->len, bottom;

	for (size_t i = 0; i < tl->len; i++)
		if (tl->marks[i].usec > span)
			span = tl->marks[i].usec;
	if (span == 0)
		span = 1000000;
	bottom = SVG_TOP + rows * SVG_ROW + 4;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\">\n", SVG_WIDTH, bottom + 28, SVG_WIDTH, bottom + 28);
	fputs("<style>text{font-family:sans-serif;font-size:12px;fill:#222}"
	      ".tick{text-anchor:middle;font-size:11px}.dur{font-size:11px;fill:#555}"
	      ".grid{stroke:#ddd;stroke-width:1}.title{font-size:14px;font-weight:bold}</style>\n", f);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", SVG_WIDTH, bottom + 28);
	fprintf(f, "<text x=\"8\" y=\"20\" class=\"title\">lifeboat boot timeline: %.3fs to the "
		"last phase</text>\n", (double)span / 1e6);
	axis_write(f, span, bottom);
	for (size_t i = 0; i < tl->len; i++) {
		const struct timeline_mark *m = &tl->marks[i];
		unsigned long long from = m->usec < prev ? m->usec : prev;

		/* The first bar: the kernel, from 0 until the init's first mark. */
		if (i == 0)
			bar_write(f, 0, "kernel", strcmp(m->phase, "start") == 0 ? "until the init ran" :
				  m->phase, 0, m->usec, span);
		else
			bar_write(f, (int)i, m->phase, m->detail, from, m->usec, span);
		prev = m->usec;
	}
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
