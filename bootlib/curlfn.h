/* curlfn: libcurl, opened at run time (dlopen), so that only the images
 * that speak HTTP carry it (a Tang unlock, kdump's URL targets) and no
 * program of the image links a network library. */
#ifndef LIFEBOAT_BOOTLIB_CURLFN_H
#define LIFEBOAT_BOOTLIB_CURLFN_H

#include <stddef.h>
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
	/* The multi interface: several transfers at once (bootlib/http.c). */
	CURLM *(*multi_init)(void);
	CURLMcode (*multi_add_handle)(CURLM *multi, CURL *curl);
	CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *curl);
	CURLMcode (*multi_perform)(CURLM *multi, int *running);
	CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd fds[], unsigned int nfds,
				int timeout_ms, int *numfds);
	CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
	CURLMcode (*multi_cleanup)(CURLM *multi);
};

/* Fill fn from LAYOUT_LIBCURL. Returns 0, or -ENOENT with dlerror's text
 * in why. Opened once; later calls reuse it. */
int curlfn_open(struct curlfn *fn, char *why, size_t why_size);

#endif
