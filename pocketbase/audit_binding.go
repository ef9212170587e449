// The JS binding of the audit log: $audit in the hooks (audit.go, pb_hooks/lib/audit.js).
package main

import (
	"fmt"

	"github.com/dop251/goja"
	"github.com/pocketbase/pocketbase/core"
)

// bindAudit sets the global $audit: append(app, e, {actor, action, target?, details?}) and
// verify(app) -> {ok, count, seq?}.
func bindAudit(vm *goja.Runtime) {
	obj := vm.NewObject()
	_ = obj.Set("append", func(app core.App, event goja.Value, what map[string]any) error {
		var e *core.RequestEvent
		if event != nil && !goja.IsUndefined(event) && !goja.IsNull(event) {
			e = requestEventOf(event.Export())
		}
		text := func(name string) (string, error) {
			value, present := what[name]
			if !present || value == nil {
				return "", nil
			}
			s, ok := value.(string)
			if !ok {
				return "", fmt.Errorf("audit: %s must be a string", name)
			}
			return s, nil
		}
		entry := auditWhat{}
		var err error
		if entry.Actor, err = text("actor"); err != nil {
			return err
		}
		if entry.Action, err = text("action"); err != nil {
			return err
		}
		if entry.Target, err = text("target"); err != nil {
			return err
		}
		if details, present := what["details"]; present && details != nil {
			m, ok := details.(map[string]any)
			if !ok {
				return fmt.Errorf("audit: details must be an object")
			}
			entry.Details = m
		}
		return auditAppend(app, e, entry)
	})
	_ = obj.Set("verify", func(app core.App) (map[string]any, error) {
		verdict, err := auditVerify(app)
		if err != nil {
			return nil, err
		}
		answer := map[string]any{"ok": verdict.OK, "count": verdict.Count}
		if !verdict.OK {
			answer["seq"] = verdict.Seq
		}
		return answer, nil
	})
	vm.Set("$audit", obj)
}
