package rules

import (
	"fmt"
	"strconv"
)

// maxExcerpt is how much of a bad input an error message quotes.
const maxExcerpt = 32

// excerpt quotes s for an error message: whole when it is short, else its
// first bytes and its length, so that a huge input never makes a huge
// message. Control and invalid bytes are escaped.
func excerpt(s string) string {
	if len(s) <= maxExcerpt {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%q... (%d bytes)", s[:maxExcerpt], len(s))
}
