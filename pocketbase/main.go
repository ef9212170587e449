// Command pocketbase is ChatCrypt's PocketBase: the stock server (dashboard included)
// with the JS VM plugin for our pb_hooks and JS pb_migrations, and the migrate command. The hooks
// also get $safeFetch (safefetch.go), the guarded HTTP fetch used for link previews and the news
// feed, $parseFeed and $parsePreview (parsers.go), which read what it fetched, and $mlsCheck
// (mlscheck.go), the delivery service's look at the MLS commits and GroupInfos members send, and
// $audit (audit_binding.go), the one writer of the audit log.
//
// `pocketbase parse ...` prints what those parsers read from a saved document (parsers.go); it
// runs before PocketBase itself, so it needs no data directory.
package main

import (
	"log"
	"os"

	"github.com/dop251/goja"
	"github.com/pocketbase/pocketbase"
	"github.com/pocketbase/pocketbase/plugins/jsvm"
	"github.com/pocketbase/pocketbase/plugins/migratecmd"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "parse" {
		os.Exit(runParseCommand(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}

	app := pocketbase.NewWithConfig(pocketbase.Config{DBConnect: connectDB})

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

	safeFetch := registerSafeFetch()
	jsvm.MustRegister(app, jsvm.Config{
		HooksDir:      hooksDir,
		HooksWatch:    hooksWatch,
		HooksPoolSize: hooksPool,
		MigrationsDir: migrationsDir,
		OnInit: func(vm *goja.Runtime) {
			safeFetch(vm)
			bindParsers(vm)
			bindMLSCheck(vm)
			bindAudit(vm)
			bindRetention(vm)
			bindSSO(vm)
			bindNotifyMail(vm)
		},
	})
	migratecmd.MustRegister(app, app.RootCmd, migratecmd.Config{
		TemplateLang: migratecmd.TemplateLangJS,
		Automigrate:  automigrate,
		Dir:          migrationsDir,
	})

	registerProxySecret(app)
	registerListThrottleBypass(app)
	registerChunkedLimit(app)
	registerMemberCache(app)
	registerMessageBroadcast(app)
	registerMembershipBroadcast(app)
	registerRequestBroadcast(app)
	registerDeviceLinkBroadcast(app)
	registerStandingBroadcast(app)
	registerNotifyRulesBroadcast(app)
	registerThreadsSeenBroadcast(app)
	registerArchiveBroadcast(app)
	registerKeyPinsBroadcast(app)
	registerKeysBroadcast(app)
	registerRetentionBroadcast(app)
	registerGoneBroadcast(app)
	registerUnreadBroadcast(app)
	registerRelay(app)
	registerSessions(app)
	registerPushSessions(app)
	registerLastSeenKept(app)
	registerRevocations(app)
	registerDeactivated(app)
	registerReactivated(app)
	registerGroupReset(app)
	registerEpochBroadcast(app)
	registerSealedChannels(app)
	registerStorageErrors(app)
	registerCheckpoints(app)
	registerHistory(app)
	registerSharedProfiles(app)
	registerTyping(app)
	registerPush(app)
	registerCalls(app)
	registerCallRecords(app)
	registerPasskeys(app)
	registerPprof(app)
	registerAccountLimits(app)
	registerRetention(app)

	if err := app.Start(); err != nil {
		log.Fatal(err)
	}
}
