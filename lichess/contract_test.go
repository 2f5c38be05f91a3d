package lichess_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/content"
	liberrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/paths"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"

	"github.com/threefold-chess/threefold/internal/testenv"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

// specFile is the official Lichess API description (OpenAPI 3.1, the
// lichess-api.yaml of lichess-org/api, which refers to its tags/, schemas/
// and examples/ folders) in the shared data folder of $THREEFOLD_CORPUS. It
// is AGPL test data kept outside the repository.
const specFile = "lichess-api/specs/lichess-api.yaml"

// contract checks traffic between the client and the fake against the
// official description, through libopenapi-validator: every request the
// client sends (path, method, parameters, body encoding and fields, and the
// OAuth scopes the operation declares against those of the token sent)
// and every answer of the fake (status, content type, schema), each line
// of an NDJSON answer against the item schema, keep-alives skipped.
type contract struct {
	t      *testing.T
	v      validator.Validator
	doc    *v3.Document
	opts   *config.ValidationOptions
	fake   *fakelichess.Server
	base   http.RoundTripper
	mu     sync.Mutex
	faults []string
	ops    map[string]int // "METHOD /path/template" -> requests
	paths  []string       // every path requested, as sent
}

// loadContract reads the description, or skips the test where it is
// absent (testenv.Corpus: fails in CI, where it must be present).
func loadContract(t *testing.T) *contract {
	t.Helper()
	spec := testenv.Corpus(t, specFile)
	data, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := libopenapi.NewDocumentWithConfiguration(data, &datamodel.DocumentConfiguration{
		BasePath: filepath.Dir(spec), AllowFileReferences: true, ExtractRefsSequentially: true,
		Logger: slog.New(slog.DiscardHandler), // the description has a dangling reference (ExternalEngine) we do not use
	})
	if err != nil {
		t.Fatalf("read the description: %v", err)
	}
	model, err := doc.BuildV3Model()
	if err != nil || model == nil {
		t.Fatalf("build the description's model: %v", err)
	}
	k := &contract{t: t, doc: &model.Model, ops: map[string]int{}, base: http.DefaultTransport.(*http.Transport).Clone()}
	opts := []config.Option{
		config.WithAuthenticationFunc(k.authenticate),
		config.WithURLEncodedBodyValidation(),
		config.WithStandardBodyDecoders(),
		config.WithBodyDecoder("application/x-ndjson", content.DecoderFunc(decodeJSONLine)),
		config.WithBodyDecoder("application/x-chess-pgn", content.DecoderFunc(decodeText)),
	}
	v, errs := validator.NewValidator(doc, opts...)
	if len(errs) > 0 {
		t.Fatalf("validator: %v", errs)
	}
	k.v = v
	k.opts = config.NewValidationOptions(opts...)
	return k
}

// decodeJSONLine decodes one NDJSON line: the description gives the schema
// of one item of the stream.
// Some streams are described as an array of their items (MoveStream,
// GameStream): a line is then checked as an array of one.
func decodeJSONLine(in *content.DecodeInput) (any, error) {
	var v any
	if err := json.NewDecoder(in.Body).Decode(&v); err != nil {
		return nil, err
	}
	if in.Schema != nil && slices.Contains(in.Schema.Type, "array") {
		return []any{v}, nil
	}
	return v, nil
}

func decodeText(in *content.DecodeInput) (any, error) {
	b, err := io.ReadAll(in.Body)
	return string(b), err
}

// authenticate checks the OAuth2 requirement of an operation: a token must
// be sent, be known, and hold one of the scopes the operation lists (lila
// accepts any one of them: Scoped(_.Challenge.Read, _.Bot.Play, …)).
func (k *contract) authenticate(_ context.Context, in *config.AuthenticationInput) error {
	a := in.Request.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(a, "Bearer ")
	if !ok || tok == "" {
		return fmt.Errorf("no token, and %s %s declares OAuth2 %v", in.Request.Method, in.Path, in.Scopes)
	}
	if !k.fake.TokenValid(tok) {
		return fmt.Errorf("an unknown token")
	}
	have := k.fake.TokenScopes(tok)
	if len(in.Scopes) == 0 {
		return nil
	}
	for _, want := range in.Scopes {
		for _, h := range have {
			if h == want {
				return nil
			}
		}
	}
	return fmt.Errorf("the token's scopes %v hold none of %v, which %s %s declares", have, in.Scopes, in.Request.Method, in.Path)
}

func (k *contract) violation(format string, args ...any) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.faults = append(k.faults, fmt.Sprintf(format, args...))
}

func describeErrs(errs []*liberrors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "\n    %s: %s", e.Message, e.Reason)
		for _, s := range e.SchemaValidationErrors {
			fmt.Fprintf(&b, "\n      %s %s", s.FieldPath, s.Reason)
		}
	}
	return b.String()
}

// RoundTrip validates the request, sends it to the fake, and validates the
// answer as it is read.
func (k *contract) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasPrefix(req.URL.String(), k.fake.URL) {
		return k.base.RoundTrip(req) // not Lichess: login's own redirect listener
	}
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	vreq := k.asLichess(req, body)
	op := req.Method + " " + vreq.URL.Path
	if _, _, tmpl := paths.FindPath(vreq, k.doc, k.opts); tmpl != "" {
		op = req.Method + " " + tmpl
	}
	k.mu.Lock()
	k.ops[op]++
	k.paths = append(k.paths, vreq.URL.Path)
	k.mu.Unlock()
	_, errs := k.v.ValidateHttpRequestSync(vreq)
	if errs = k.checkTypedForm(vreq, body, errs); len(errs) > 0 {
		k.violation("request %s %s:%s", req.Method, vreq.URL.RequestURI(), describeErrs(errs))
	}
	resp, err := k.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	check := func(b []byte) {
		r := &http.Response{StatusCode: resp.StatusCode, Header: resp.Header.Clone(), Body: io.NopCloser(bytes.NewReader(b)), Request: vreq}
		for _, d := range deviations {
			if d.applies(req.Method, vreq.URL.Path, mt) {
				if d.adapt == nil {
					return
				}
				d.adapt(r, b)
			}
		}
		if ok, errs := k.v.ValidateHttpResponse(k.asLichess(req, body), r); !ok {
			k.violation("answer to %s %s (%d %s): %.300q%s", req.Method, vreq.URL.RequestURI(), resp.StatusCode, mt, b, describeErrs(errs))
		}
	}
	switch {
	case mt == "application/x-ndjson" && resp.StatusCode == http.StatusOK:
		resp.Body = &lineChecker{ReadCloser: resp.Body, check: func(line []byte) {
			if len(bytes.TrimSpace(line)) > 0 { // an empty line is a keep-alive
				check(line)
			}
		}}
	case mt == "application/x-chess-pgn" && resp.StatusCode == http.StatusOK:
		var all bytes.Buffer
		resp.Body = &lineChecker{ReadCloser: resp.Body, check: func(line []byte) { all.Write(line); all.WriteByte('\n') },
			closed: func() {
				if bytes.TrimSpace(all.Bytes()) != nil || all.Len() == 0 {
					check(all.Bytes())
				}
			}}
	default:
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(b))
		check(b)
	}
	return resp, nil
}

// deviation is a place where the description cannot be taken literally,
// each with its reason. There are two, both in the description itself or
// in what a test fake cannot do; none excuses the client or the fake.
type deviation struct {
	method, pathPrefix, mediaType string
	// adapt rewrites the answer to the form the description declares; nil
	// skips the answer's check.
	adapt func(r *http.Response, body []byte)
}

func (d deviation) applies(method, path, mediaType string) bool {
	return method == d.method && strings.HasPrefix(path, d.pathPrefix) && (d.mediaType == "" || d.mediaType == mediaType)
}

var deviations = []deviation{
	// The description declares a game export in PGN under
	// application/json, as oneOf GamePgn (a string) or GameJson, while
	// Lichess (and its own example) serves it as application/x-chess-pgn:
	// the PGN is checked as that string.
	{method: http.MethodGet, pathPrefix: "/game/export/", mediaType: "application/x-chess-pgn", adapt: pgnAsJSONString},
	{method: http.MethodGet, pathPrefix: "/api/user/", mediaType: "application/x-chess-pgn", adapt: pgnAsJSONString},
	// The authorisation page is for a person: the fake approves at once
	// and redirects (303) where Lichess shows its page (200). The request
	// is still checked.
	{method: http.MethodGet, pathPrefix: "/oauth"},
}

// checkTypedForm works around a limit of libopenapi-validator (v0.16) and
// a defect of the description, both met by the body of POST
// /api/challenge/{username}, an allOf of a oneOf (real-time, correspondence,
// unlimited) and the common fields:
//   - the library types the fields of a form body (rated=true as a
//     boolean, clock.limit=60 as an integer) only through the schema's
//     top-level properties, not through allOf/oneOf: every boolean and
//     integer reads as a string there;
//   - the "unlimited" branch of the oneOf ({type: object, properties: {}})
//     matches every object, so a real-time or correspondence challenge
//     matches two branches and fails oneOf: only an unlimited challenge
//     could pass. The branches are told apart by the fields they declare,
//     as the description's titles mean them: a body with a field of a
//     branch (clock.limit, days) must meet that branch.
//
// For such a body (a form whose schema has no top-level properties),
// valid or not by the library, the library's body errors are replaced by the library's check of the same
// form, each value typed as its text says (an integer, true/false, or a
// string), against each part of the allOf, a oneOf by the branch its
// fields choose. Every other error stands.
func (k *contract) checkTypedForm(req *http.Request, body []byte, errs []*liberrors.ValidationError) []*liberrors.ValidationError {
	mt, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
	if mt != "application/x-www-form-urlencoded" {
		return errs
	}
	pathItem, _, _ := paths.FindPath(req, k.doc, k.opts)
	if pathItem == nil || pathItem.Post == nil || pathItem.Post.RequestBody == nil {
		return errs
	}
	media := pathItem.Post.RequestBody.Content.GetOrZero(mt)
	if media == nil || media.Schema == nil {
		return errs
	}
	schema := media.Schema.Schema()
	if schema == nil || schema.Properties != nil && schema.Properties.Len() > 0 || len(schema.AllOf)+len(schema.OneOf) == 0 {
		return errs
	}
	var rest []*liberrors.ValidationError
	for _, e := range errs {
		if e.ValidationType != "requestBody" {
			rest = append(rest, e)
		}
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return append(rest, &liberrors.ValidationError{Message: "form body does not parse", Reason: err.Error()})
	}
	typed := map[string]any{}
	for name, vs := range form {
		v := vs[len(vs)-1]
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			typed[name] = n
		} else if b, err := strconv.ParseBool(v); err == nil && (v == "true" || v == "false") {
			typed[name] = b
		} else {
			typed[name] = v
		}
	}
	return append(rest, checkAnyOf(schema, typed)...)
}

// checkAnyOf validates v against schema with the library, a oneOf inside
// an allOf by the branches that declare a field of v (see checkTypedForm).
func checkAnyOf(schema *base.Schema, v map[string]any) []*liberrors.ValidationError {
	sv := schema_validation.NewSchemaValidator()
	if len(schema.AllOf) > 0 {
		var errs []*liberrors.ValidationError
		for _, p := range schema.AllOf {
			errs = append(errs, checkAnyOf(p.Schema(), v)...)
		}
		return errs
	}
	if len(schema.OneOf) > 0 {
		branches := schema.OneOf
		var chosen []*base.SchemaProxy
		for _, p := range branches {
			if props := p.Schema().Properties; props != nil {
				for name := range props.KeysFromOldest() {
					if _, ok := v[name]; ok {
						chosen = append(chosen, p)
						break
					}
				}
			}
		}
		if len(chosen) > 0 {
			branches = chosen
		}
		var errs []*liberrors.ValidationError
		for _, p := range branches {
			ok, e := sv.ValidateSchemaObject(p.Schema(), v)
			if ok {
				return nil
			}
			errs = append(errs, e...)
		}
		return errs
	}
	if ok, errs := sv.ValidateSchemaObject(schema, v); !ok {
		return errs
	}
	return nil
}

func pgnAsJSONString(r *http.Response, body []byte) {
	j, _ := json.Marshal(string(body))
	r.Header.Set("Content-Type", "application/json")
	r.Body = io.NopCloser(bytes.NewReader(j))
}

// asLichess returns the request as it would reach lichess.org: the fake's
// prefix taken off the path.
func (k *contract) asLichess(req *http.Request, body []byte) *http.Request {
	u := *req.URL
	u.Scheme, u.Host = "https", "lichess.org"
	u.Path = strings.TrimPrefix(u.Path, k.fake.Prefix)
	u.RawPath = ""
	r := req.Clone(req.Context())
	r.URL = &u
	r.Host = u.Host
	r.Body = io.NopCloser(bytes.NewReader(body))
	return r
}

// lineChecker hands each complete line of a body to check as it is read.
type lineChecker struct {
	io.ReadCloser
	buf    []byte
	check  func([]byte)
	closed func()
	once   sync.Once
}

func (l *lineChecker) Read(p []byte) (int, error) {
	n, err := l.ReadCloser.Read(p)
	l.buf = append(l.buf, p[:n]...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		l.check(l.buf[:i])
		l.buf = l.buf[i+1:]
	}
	return n, err
}

func (l *lineChecker) Close() error {
	l.once.Do(func() {
		if len(bytes.TrimSpace(l.buf)) > 0 {
			l.check(l.buf)
		}
		if l.closed != nil {
			l.closed()
		}
	})
	return l.ReadCloser.Close()
}

// report fails the test with every violation, and logs the operations
// exercised.
func (k *contract) report() {
	k.t.Helper()
	k.mu.Lock()
	defer k.mu.Unlock()
	var ops []string
	for op, n := range k.ops {
		ops = append(ops, fmt.Sprintf("%s ×%d", op, n))
	}
	sort.Strings(ops)
	k.t.Logf("%d operations exercised:\n  %s", len(ops), strings.Join(ops, "\n  "))
	for _, f := range k.faults {
		k.t.Errorf("contract violation: %s", f)
	}
}
