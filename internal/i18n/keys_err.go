package i18n

// the errors a user acts on (cmd/threefold): said in the user's language when printed.
const (
	ErrNoToken         Key = "err.no_token"
	ErrNoTokenScopes   Key = "err.no_token_scopes"
	ErrScope           Key = "err.scope"
	ErrTokenRejected   Key = "err.token_rejected"
	ErrNoSuchFile      Key = "err.no_such_file"
	ErrNoSuchPath      Key = "err.no_such_path"
	ErrUnknownKeys     Key = "err.unknown_keys"
	ErrUnknownEntryKey Key = "err.unknown_entry_key"
)

// The context an error is wrapped in (fmt.Errorf("login: save the token:
// %w", err)), said in the user's language around a translated error: each
// part between ": " that is one of these is said, the others (command
// names, flags, paths) are kept.
const (
	CtxConfig        Key = "ctx.config" // %[1]s the config file
	CtxStore         Key = "ctx.store"
	CtxWrite         Key = "ctx.write"
	CtxReadAnswer    Key = "ctx.read_answer"
	CtxCancel        Key = "ctx.cancel" // %[1]s the challenge id
	CtxNewTokenFails Key = "ctx.new_token_fails"
	CtxSaveToken     Key = "ctx.save_token"
	CtxTokenKept     Key = "ctx.token_kept" // %[1]s the token file
	CtxSavedToken    Key = "ctx.saved_token"
	CtxNoConfigDir   Key = "ctx.no_config_dir"
	CtxStudyRead     Key = "ctx.study_read" // said after the error
)

// ContextKeys lists the contexts.
var ContextKeys = []Key{CtxConfig, CtxStore, CtxWrite, CtxReadAnswer, CtxCancel, CtxNewTokenFails, CtxSaveToken,
	CtxTokenKept, CtxSavedToken, CtxNoConfigDir, CtxStudyRead}
