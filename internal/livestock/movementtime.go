package livestock

// ParseMovementTime reads a date of the movements interface (transferDate,
// saleDate, arrivalDate, a movement document's times): the live service
// writes a date-time, yyyy-MM-ddTHH:mm:ssK; a plain yyyy-MM-dd, which
// Drover took first, stays accepted and stands for midnight UTC of that
// day, an instant that falls on the same day in the UK calendar.
//
// It returns the instant, as written (a plain date as T00:00:00Z), and
// the UK calendar date it falls on, which the movement rules use. A date
// before EarliestDate is refused, as ParseRecordDate refuses it.
func ParseMovementTime(s string) (DateTime, Date, error) {
	if len(s) == len("2006-01-02") {
		d, err := ParseRecordDate(s)
		if err != nil {
			return DateTime{}, Date{}, err
		}
		return DateTime{s + "T00:00:00Z"}, d, nil
	}
	t, err := ParseDateTime(s)
	if err != nil {
		return DateTime{}, Date{}, err
	}
	d := UKDate(t.Time())
	if d.Before(EarliestDate) || d.IsZero() {
		return DateTime{}, Date{}, ruleError(CodeBadFormat, "date-time", s, "must be "+EarliestDate.String()+" or later: the register holds no earlier date")
	}
	return t, d, nil
}
