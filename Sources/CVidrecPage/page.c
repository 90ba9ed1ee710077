#include "CVidrecPage.h"

// #embed (C23) makes the build depend on each file: an edit rebuilds this one.
#pragma clang diagnostic ignored "-Wc23-extensions"

static const char html[] = {
#embed "page/index.html"
    , 0
};

static const char style[] = {
#embed "page/app.css"
    , 0
};

static const char script[] = {
#embed "page/app.js"
    , 0
};

const char *cvidrec_page_html(void) { return html; }
const char *cvidrec_page_style(void) { return style; }
const char *cvidrec_page_script(void) { return script; }
