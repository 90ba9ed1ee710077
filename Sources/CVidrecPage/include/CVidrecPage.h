#ifndef CVIDREC_PAGE_H
#define CVIDREC_PAGE_H

// The files of the page `vidrec serve` shows (page/), embedded at build time: each a
// NUL-terminated UTF-8 string that lives as long as the program.

/// page/index.html: the document, with `{{key}}` for the page's key and `{{style}}`
/// on a line of its own for page/app.css.
const char *cvidrec_page_html(void);

/// page/app.css: the page's style, inlined into the document.
const char *cvidrec_page_style(void);

/// page/app.js: the page's script, served as /app.js.
const char *cvidrec_page_script(void);

#endif
