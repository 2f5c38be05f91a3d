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
