// Command pocketbase is ChatCrypt's PocketBase: the stock server (dashboard included)
// with the JS VM plugin for our pb_hooks and JS pb_migrations, and the migrate command. The hooks
// also get $safeFetch (safefetch.go), the guarded HTTP fetch used for link previews.
package main

import (
	"log"
	"os"

	"github.com/pocketbase/pocketbase"
	"github.com/pocketbase/pocketbase/plugins/jsvm"
	"github.com/pocketbase/pocketbase/plugins/migratecmd"
)

func main() {
	app := pocketbase.New()

	var hooksDir, migrationsDir string
	var hooksWatch, automigrate bool
	var hooksPool int
	flags := app.RootCmd.PersistentFlags()
	flags.StringVar(&hooksDir, "hooksDir", "", "the directory with the JS app hooks")
	flags.BoolVar(&hooksWatch, "hooksWatch", false, "restart the app when a pb_hooks file changes (development only)")
	flags.IntVar(&hooksPool, "hooksPool", 15, "how many JS runtimes to prewarm for the app hooks")
	flags.StringVar(&migrationsDir, "migrationsDir", "", "the directory with the JS migrations")
	flags.BoolVar(&automigrate, "automigrate", false, "generate migrations from dashboard schema changes (development only)")
	_ = app.RootCmd.ParseFlags(os.Args[1:])

	jsvm.MustRegister(app, jsvm.Config{
		HooksDir:      hooksDir,
		HooksWatch:    hooksWatch,
		HooksPoolSize: hooksPool,
		MigrationsDir: migrationsDir,
		OnInit:        registerSafeFetch(),
	})
	migratecmd.MustRegister(app, app.RootCmd, migratecmd.Config{
		TemplateLang: migratecmd.TemplateLangJS,
		Automigrate:  automigrate,
		Dir:          migrationsDir,
	})

	registerMemberCache(app)
	registerMessageBroadcast(app)
	registerRelay(app)

	if err := app.Start(); err != nil {
		log.Fatal(err)
	}
}
