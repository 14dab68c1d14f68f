/* curlfn: libcurl, opened at run time (dlopen), so that only images with a
 * URL target carry it and the init links no network library. */
#ifndef LIFEBOAT_KDUMP_CURLFN_H
#define LIFEBOAT_KDUMP_CURLFN_H

#include <curl/curl.h>

struct curlfn {
	CURLcode (*global_init)(long flags);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
	CURLcode (*easy_perform)(CURL *curl);
	CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
	void (*easy_cleanup)(CURL *curl);
	const char *(*easy_strerror)(CURLcode code);
	struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
	void (*slist_free_all)(struct curl_slist *list);
};

/* Fill fn from libcurl.so.4. Returns 0, or -ENOENT with dlerror's text
 * in why. Opened once; later calls reuse it. */
int curlfn_open(struct curlfn *fn, char *why, size_t why_size);

#endif
