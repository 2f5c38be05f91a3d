package i18n

import (
	"errors"
	"io/fs"
	"strings"
)

// A Sayer is an error a user acts on that can say itself in a language:
// Error is its English text, SayIn its text in p's language (false when
// it has no words of its own for this case).
type Sayer interface {
	error
	SayIn(p *Printer) (string, bool)
}

// Error is an error a user acts on (a missing token, a key the config
// does not know) made of a message of the catalogue: Error says it in
// English, SayIn in any language.
type Error struct {
	Key  Key
	Args []any
}

// NewError is the Error of message key with its values.
func NewError(key Key, args ...any) error { return Error{Key: key, Args: args} }

func (e Error) Error() string { return For(English).Sprintf(e.Key, e.Args...) }

// SayIn says e in p's language.
func (e Error) SayIn(p *Printer) (string, bool) { return p.Sprintf(e.Key, e.Args...), true }

// ErrorText is what a user reads of err in l: in English as it is; in
// another language, the error a user acts on that err carries (a Sayer,
// or a file that is not there) said in that language, inside the context
// err wraps it in, said in that language too where it is one of
// ContextKeys ("login: save the token: …"); any other error as it is.
func ErrorText(l Lang, err error) string {
	full := err.Error()
	if l == "" || l == English {
		return full
	}
	p := For(l)
	inner, said, ok := sayable(p, err)
	if !ok {
		return full
	}
	at := strings.LastIndex(full, inner)
	if at < 0 {
		return said
	}
	return contextIn(p, full[:at]) + said + contextIn(p, full[at+len(inner):])
}

// sayable finds in err's chain the error a user acts on, and gives its
// English text and its text in p's language.
func sayable(p *Printer, err error) (english, said string, ok bool) {
	var found Sayer
	walk(err, func(e error) bool {
		if s, isSayer := e.(Sayer); isSayer {
			if said, ok = s.SayIn(p); ok {
				found = s
			}
		}
		return found != nil
	})
	if found != nil {
		return found.Error(), said, true
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && errors.Is(pe.Err, fs.ErrNotExist) {
		return pe.Error(), p.Sprintf(ErrNoSuchFile, pe.Path), true
	}
	return "", "", false
}

// walk visits err and the errors it wraps, depth first, until visit says
// stop.
func walk(err error, visit func(error) bool) bool {
	if err == nil {
		return false
	}
	if visit(err) {
		return true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return walk(u.Unwrap(), visit)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if walk(e, visit) {
				return true
			}
		}
	}
	return false
}

// contextIn says the context around an error ("login: the new token does
// not work: ") in p's language: the whole of it if it is one of
// ContextKeys, else each part between ": " that is; command names, flags
// and paths are kept as they are.
func contextIn(p *Printer, context string) string {
	if s, ok := p.Rephrase(context, ContextKeys...); ok {
		return s
	}
	parts := strings.Split(context, ": ")
	for i, part := range parts {
		parts[i], _ = p.Rephrase(part, ContextKeys...)
	}
	return strings.Join(parts, ": ")
}
