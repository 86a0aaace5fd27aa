package store

// RequestKey is the field unique to each request, last in every order of
// a listing (odata.Collection.Key).
const RequestKey = "requestId"

// Value is r's value for a field of RequestFilterFields, as the store
// keeps it: a string, a time.Time, an int64 or a bool, or nil for a member
// that has none (a trackingId never given). It is what a $skiptoken holds
// for the last item of a page under an $orderby (RequestQuery.After).
func (r Request) Value(field string) any {
	switch field {
	case "requestId":
		return r.ID
	case "requestDate":
		return r.RequestDate
	case "updatedDate":
		return r.UpdatedDate
	case "movementDate":
		if r.MovementDate.IsZero() {
			return nil
		}
		return r.MovementDate
	case "species", "content/species":
		return SpeciesName(r.Species) // "" stands for none, and sorts first as none does
	case "requestStatus":
		return string(r.Status)
	case "trackingId", "content/trackingId":
		if r.TrackingID == "" {
			return nil
		}
		return r.TrackingID
	case "userName":
		return r.UserName
	case "isFullUndone":
		return r.IsFullUndone
	case "undoSupported":
		return r.UndoSupported
	case "isContentPurged":
		return false // Drover keeps every request's content
	}
	return nil
}

// Values is r's values for the fields of order, for RequestQuery.After.
func (r Request) Values(fields []string) []any {
	out := make([]any, len(fields))
	for i, f := range fields {
		out[i] = r.Value(f)
	}
	return out
}
