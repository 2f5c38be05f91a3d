package safetext

import (
	"encoding/json"
	"errors"
	"fmt"
)

// JSONProblem says what is wrong with a JSON text, from the error of its
// decoding, without quoting the text (it may hold a secret, such as a
// webhook URL).
func JSONProblem(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("not JSON at byte %d", se.Offset)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return "a " + te.Value + " where a value was expected"
	}
	return "not JSON"
}
