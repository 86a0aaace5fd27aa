package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// riskySettings are the server settings, as a session of Drover's sees
// them, under which a promise Drover makes does not hold: each setting's
// value that breaks it, and what breaks. They are the operator's to set
// (the server's file, ALTER DATABASE, ALTER ROLE), so Drover tells rather
// than overrides them.
var riskySettings = []struct {
	name, bad, why string
}{
	{"fsync", "off", "a crash of the machine can lose or corrupt transfers already acknowledged"},
	{"full_page_writes", "off", "a crash of the machine can leave torn pages, and the registry unreadable"},
	{"synchronous_commit", "off", "a crash of PostgreSQL can lose the last transfers acknowledged (up to three times wal_writer_delay)"},
	{"autovacuum", "off", "the job queue's dead rows are never removed, so every claim walks more of them, and a grown " +
		"registry's planner statistics are never refreshed; run VACUUM (ANALYZE) on a schedule instead"},
	{"track_counts", "off", "autovacuum cannot tell which tables need it, so it never runs"},
}

// settingWarnings reads the settings of riskySettings on db and returns
// one sentence for each that has its bad value.
func settingWarnings(ctx context.Context, db *sql.DB) ([]string, error) {
	names := make([]string, len(riskySettings))
	for i, s := range riskySettings {
		names[i] = s.name
	}
	rows, err := db.QueryContext(ctx, "SELECT name, setting FROM pg_settings WHERE name = ANY($1)", names)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	got := map[string]string{}
	for rows.Next() {
		var name, setting string
		if err := rows.Scan(&name, &setting); err != nil {
			return nil, err
		}
		got[name] = setting
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return warningsFor(got), nil
}

// warningsFor is settingWarnings' judgement of the settings read.
func warningsFor(settings map[string]string) []string {
	var warnings []string
	for _, s := range riskySettings {
		if v, ok := settings[s.name]; ok && strings.EqualFold(v, s.bad) {
			warnings = append(warnings, fmt.Sprintf("PostgreSQL has %s = %s: %s", s.name, v, s.why))
		}
	}
	return warnings
}
