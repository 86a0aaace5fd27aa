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
	if layout == TimeFormat {
		if t, ok := parseTimeFormat(s); ok {
			return t, nil
		}
	}
	for _, l := range []string{layout, time.RFC3339Nano, DateFormat} {
		if t, err := time.Parse(l, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("cannot parse %q as a time", s)
}

// parseTimeFormat reads s written in TimeFormat, as SQLite keeps every
// instant, without time.Parse: a listing of 100 requests scans 300 of
// them, and time.Parse was a twentieth of a listing's CPU. It reports
// false for anything else (time.Parse then decides), and for a date or
// time out of range, which time.Date would quietly normalise.
func parseTimeFormat(s string) (time.Time, bool) {
	if len(s) != len(TimeFormat) || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
		s[16] != ':' || s[19] != '.' || s[26] != 'Z' {
		return time.Time{}, false
	}
	num := func(from, to int) (int, bool) {
		n := 0
		for i := from; i < to; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 7)
	dom, ok3 := num(8, 10)
	hour, ok4 := num(11, 13)
	minute, ok5 := num(14, 16)
	sec, ok6 := num(17, 19)
	micro, ok7 := num(20, 26)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) || month < 1 || month > 12 || dom < 1 ||
		dom > daysIn(time.Month(month), year) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), dom, hour, minute, sec, micro*1000, time.UTC), true
}

// daysIn is the number of days of month m in year.
func daysIn(m time.Month, year int) int {
	return time.Date(year, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
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
