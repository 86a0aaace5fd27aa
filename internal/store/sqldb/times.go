package sqldb

import (
	"fmt"
	"time"
)

// TimeFormat is how an instant is written where the database has no time
// type (SQLite): fixed width and UTC, so that text compares as time does.
const TimeFormat = "2006-01-02T15:04:05.000000Z"

// DateFormat is how a date is bound on every dialect.
const DateFormat = "2006-01-02"

// at is the value bound for instant t: UTC, to the microsecond, in the
// dialect's form.
func (s *Store) at(t time.Time) any {
	return s.d.BindTime(t.UTC().Truncate(time.Microsecond))
}

// atOrNull is at, or NULL for the zero time.
func (s *Store) atOrNull(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return s.at(t)
}

// date is the value bound for the calendar date of t, in t's own location.
func date(t time.Time) string { return t.Format(DateFormat) }

// instant scans an instant stored as a time, or as text in TimeFormat (or
// RFC 3339), into a UTC time; NULL scans as the zero time.
type instant struct{ t *time.Time }

func (i instant) Scan(src any) error {
	t, err := scanTime(src, TimeFormat)
	*i.t = t.UTC()
	return err
}

// day scans a date into midnight UTC of that date.
type day struct{ t *time.Time }

func (d day) Scan(src any) error {
	t, err := scanTime(src, DateFormat)
	if err == nil && !t.IsZero() {
		t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	}
	*d.t = t
	return err
}

func scanTime(src any, layout string) (time.Time, error) {
	var s string
	switch v := src.(type) {
	case nil:
		return time.Time{}, nil
	case time.Time:
		return v, nil
	case string:
		s = v
	case []byte:
		s = string(v)
	default:
		return time.Time{}, fmt.Errorf("cannot scan %T as a time", src)
	}
	for _, l := range []string{layout, time.RFC3339Nano, DateFormat} {
		if t, err := time.Parse(l, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("cannot parse %q as a time", s)
}

// Month is the month bucket of instant t that the listing indexes keep
// beside a movement date (migration 00006): its year * 100 + month, in UTC.
func Month(t time.Time) int64 {
	t = t.UTC()
	return int64(t.Year())*100 + int64(t.Month())
}

// monthOrNull is Month(t), or NULL for the zero time.
func monthOrNull(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return Month(t)
}

// months lists the month buckets from the one of instant from to the one
// of instant to, in order.
func months(from, to time.Time) []int64 {
	var list []int64
	for m := time.Date(from.UTC().Year(), from.UTC().Month(), 1, 0, 0, 0, 0, time.UTC); !m.After(to); m = m.AddDate(0, 1, 0) {
		list = append(list, Month(m))
	}
	return list
}
