package i18n

// faErr is the err part of the fa catalog.
var faErr = catalogOf{
	ErrNoToken:         s("%[1]s: توکن Lichess نیست: `threefold login --for bot` را اجرا کنید یا lichess.token یا THREEFOLD_LICHESS_TOKEN را تنظیم کنید"),
	ErrNoTokenScopes:   s("%[1]s: توکن Lichess نیست: `threefold login --for bot` را اجرا کنید یا lichess.token یا THREEFOLD_LICHESS_TOKEN را تنظیم کنید (توکنی با مجوزهای bot:play و challenge:read)"),
	ErrScope:           s("lichess: %[1]s: توکن مجوز %[2]q را ندارد: `threefold login --for %[3]s` را اجرا کنید یا توکنی با این مجوز بسازید: %[4]s"),
	ErrTokenRejected:   s("lichess: %[1]s: توکن پذیرفته نشد (HTTP %[2]s): نامعتبر، منقضی یا باطل‌شده"),
	ErrNoSuchFile:      s("%[1]s: چنین پرونده‌ای وجود ندارد"),
	ErrNoSuchPath:      s("%[1]q: چنین پرونده یا پوشه‌ای وجود ندارد"),
	ErrUnknownKeys:     s("config %[1]s: کلید(های) ناشناخته: %[2]s (همهٔ کلیدها در config.example.yaml آمده‌اند)"),
	ErrUnknownEntryKey: s("%[1]s[%[2]s]: کلید ناشناخته %[3]s (هر ورودی این کلیدها را دارد: %[4]s)"),
	CtxConfig:          s("پروندهٔ پیکربندی %[1]s"),
	CtxStore:           s("پایگاه"),
	CtxWrite:           s("نوشتن"),
	CtxReadAnswer:      s("خواندن پاسخ"),
	CtxCancel:          s("لغو %[1]s"),
	CtxNewTokenFails:   s("توکن تازه کار نمی‌کند"),
	CtxSaveToken:       s("ذخیرهٔ توکن"),
	CtxTokenKept:       s("توکن در %[1]s ماند"),
	CtxSavedToken:      s("توکنی که threefold login ذخیره کرده است"),
	CtxNoConfigDir:     s("پوشهٔ پیکربندی کاربر نیست (از --token-file استفاده کنید)"),
	CtxStudyRead:       s("؛ برای توکنی با مجوز study:read، `threefold login --for watch` را اجرا کنید"),
}
