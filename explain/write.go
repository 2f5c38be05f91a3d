package explain

import (
	"encoding/json"
	"fmt"
	"io"
)

// Write writes an answer of this package (a Report, a ClaimReport) to w:
// as one JSON object (the JSON of threefold explain and claim) when
// asJSON, else as its text, every word of which is ours (SAN, squares,
// plies, the catalogue).
func Write(w io.Writer, answer interface{ Text() string }, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return enc.Encode(answer)
	}
	_, err := fmt.Fprint(w, answer.Text())
	return err
}
