package listener

import "github.com/threefold-chess/threefold/internal/i18n"

// english writes the texts the alert JSON keeps in English (a source's
// name, a withdrawal's reason) from the catalog, so that i18n can read them
// back and say them in a person's language.
var english = i18n.For(i18n.English)
