package i18n

// faDemo is the demo part of the fa catalog.
var faDemo = catalogOf{
	DemoIntro:       s("نمایش threefold — بدون حساب و بدون شبکه: یک Lichess شبیه‌سازی‌شده در %[1]s بازی‌های واقعیِ ضبط‌شده را بازپخش می‌کند."),
	DemoDashboard:   s("داشبورد: %[1]s"),
	DemoFollowing:   s("دنبال می‌شود: یک دور پخش زنده با %[1]d میز، یک بازی برق‌آسا که موقعیتی در آن برای بار پنجم پدید می‌آید، و بازی‌های ربات؛ نمایش پس از %[2]s تمام می‌شود (با Ctrl-C زودتر)."),
	DemoBotGame:     pluralOf(6, "other", "بازی ربات %[1]s (%[2]s - %[3]s) تمام شد: %[4]s، %[5]s، پس از %[6]d نیم‌حرکت."),
	DemoStored:      s("پایگاه (موقت) %[1]d بازی و %[2]d هشدار دارد؛ وب‌هوک (watch.webhooks) %[3]d تا از آن‌ها را دریافت کرد."),
	DemoOver:        s("نمایش تمام شد (%[1]s): %[2]d هشدار."),
	DemoAfter:       s("پس از %[1]s"),
	DemoInterrupted: s("قطع شد"),
}
