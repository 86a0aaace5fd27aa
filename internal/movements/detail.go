package movements

import (
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/drover-registry/drover/internal/livestock"
)

// readDetail reads a device with details: the live form nests the device
// and names gender and a birth period; Drover's earlier form put the tag
// beside the details and named sex and dateOfBirth. Given both ways, the
// two must agree.
func (v *vocab) readDetail(species livestock.Species, in *detailIn, at string, errs *fieldErrs) (detailModel, livestock.Device, bool) {
	var out detailModel
	flat := deviceModel{TagNumber: in.TagNumber, RFID: in.RFID, Freezebrand: in.Freezebrand}
	devAt := at
	if in.Device == nil {
		out.Device = flat
	} else {
		devAt, out.Device = at+"/device", *in.Device
		for _, f := range []struct {
			name         string
			flat, nested **string
		}{{"tagNumber", &flat.TagNumber, &out.Device.TagNumber}, {"rfid", &flat.RFID, &out.Device.RFID}, {"freezebrand", &flat.Freezebrand, &out.Device.Freezebrand}} {
			*f.nested = agree(errs, at+"/"+f.name, "device/"+f.name, *f.flat, *f.nested)
		}
	}
	dev, ok := readDevice(species, &out.Device, devAt, errs)
	out.Gender = agree(errs, at+"/sex", "gender", in.Sex, in.Gender)
	if out.Gender != nil && !v.genders[*out.Gender] {
		errs.bad(livestock.CodeBadEnum, at+"/gender", *out.Gender, "not a gender (see /v1/StandingData/gender)")
	}
	if in.Breed != nil {
		name, known := v.breed(species, *in.Breed)
		if !known {
			errs.bad(livestock.CodeBadEnum, at+"/breed", *in.Breed, "not a breed of "+species.MovementName()+" (see /v1/StandingData)")
		}
		out.Breed = &name
	}
	begin, end := in.BeginBirthPeriod, in.EndBirthPeriod
	if in.DateOfBirth != nil {
		if begin != nil || end != nil {
			errs.bad(livestock.CodeSchema, at+"/dateOfBirth", *in.DateOfBirth, "give dateOfBirth or beginBirthPeriod and endBirthPeriod, not both")
		}
		begin, end = in.DateOfBirth, in.DateOfBirth
	}
	out.BeginBirthPeriod, out.EndBirthPeriod = birthPeriod(errs, at, begin, end, in.DateOfBirth != nil)
	out.dob = in.DateOfBirth != nil
	if in.MgtTag != nil && in.MgtTag.Identifier != nil && !mgtTagForm.MatchString(*in.MgtTag.Identifier) {
		errs.bad(livestock.CodeBadFormat, at+"/mgtTag/identifier", *in.MgtTag.Identifier, "1 to 20 letters, digits, spaces or . ( ) /")
	}
	out.MgtTag = in.MgtTag
	return out, dev, ok
}

var mgtTagForm = regexp.MustCompile(`^[A-Za-z0-9 .()/]{1,20}$`)

// agree merges a value given under its earlier name (old, at pointer at)
// and its live one: either alone, or both when they are equal.
func agree(errs *fieldErrs, at, live string, old, cur *string) *string {
	switch {
	case old == nil:
		return cur
	case cur != nil && *cur != *old:
		errs.bad(livestock.CodeSchema, at, *old, fmt.Sprintf("differs from %s (%s): give one of them", live, *cur))
	}
	return old
}

// birthPeriod reads the earliest and latest possible birth dates: both or
// neither, in order, at most 31 days apart. dob says they were given as
// dateOfBirth, where a problem is then reported.
func birthPeriod(errs *fieldErrs, at string, begin, end *string, dob bool) (*string, *string) {
	if begin == nil && end == nil {
		return nil, nil
	}
	if begin == nil || end == nil {
		missing := "/beginBirthPeriod"
		if end == nil {
			missing = "/endBirthPeriod"
		}
		errs.bad(livestock.CodeMissing, at+missing, "", "beginBirthPeriod and endBirthPeriod are given together or not at all")
		return begin, end
	}
	beginAt, endAt := at+"/beginBirthPeriod", at+"/endBirthPeriod"
	if dob {
		beginAt, endAt = at+"/dateOfBirth", at+"/dateOfBirth"
	}
	b, bd, err := livestock.ParseMovementTime(*begin)
	if err != nil {
		errs.add(beginAt, err)
		return begin, end
	}
	e, ed, err := livestock.ParseMovementTime(*end)
	if err != nil {
		errs.add(endAt, err)
		return ptr(b.String()), end
	}
	switch {
	case ed.Before(bd):
		errs.bad(livestock.CodeBirthOrder, endAt, e.String(), "the birth period ends before it begins")
	case ed.DaysSince(bd) > 31:
		errs.bad(livestock.CodeBirthSpan, endAt, e.String(), "the birth period is at most 31 days long")
	}
	return ptr(b.String()), ptr(e.String())
}

// readFlags reads processingFlags: live objects {processingFlagId, name}
// or Drover's earlier plain names. An object may give the id alone, or
// both naming the same flag; an id that names another flag than the name
// is refused (flagMismatch). Whether a name is in standing data is the
// job's to say (V023), so a request keeps every flag it was sent with.
func (v *vocab) readFlags(raw []json.RawMessage, at string, errs *fieldErrs) ([]flagModel, []string) {
	var models []flagModel
	var names []string
	for i, r := range raw {
		p := fmt.Sprintf("%s/%d", at, i)
		var f struct {
			ID   *int    `json:"processingFlagId"`
			Name *string `json:"name"`
		}
		if len(r) > 0 && r[0] == '"' {
			f.Name = new(string)
			_ = json.Unmarshal(r, f.Name) // a JSON string always reads as one
		} else if err := decodeStrictAt(r, &f, p); err != nil {
			errs.add(p, err)
			continue
		}
		name := deref(f.Name)
		if f.ID != nil && *f.ID != 0 && name != "" { // 0 is how live clients leave the id unset
			if e := v.flagMismatch(*f.ID, name, p); e != nil {
				*errs = append(*errs, *e)
				continue
			}
		}
		if name == "" && f.ID != nil {
			if name = v.flagNames[*f.ID]; name == "" {
				errs.bad(livestock.CodeBadEnum, p+"/processingFlagId", fmt.Sprint(*f.ID), "no processing flag has this id (see /v1/StandingData/processingFlags)")
				continue
			}
		}
		if name == "" {
			errs.bad(livestock.CodeMissing, p+"/name", "", "a processing flag needs its name")
			continue
		}
		m := flagModel{Name: name}
		if info, ok := v.flags[name]; ok && info.id > 0 {
			m.ProcessingFlagID = ptr(info.id)
		}
		models, names = append(models, m), append(names, name)
	}
	return models, names
}

// flagMismatch is the error of a processing flag given as id and name
// that name different flags, or nil: an id no flag has, or the id of
// another flag than the name's. Keeping either would record a flag the
// sender may not have meant.
func (v *vocab) flagMismatch(id int, name, at string) *livestock.FieldError {
	switch idName := v.flagNames[id]; {
	case idName == "":
		return &livestock.FieldError{Code: livestock.CodeBadEnum, Source: at + "/processingFlagId", Value: fmt.Sprint(id),
			Message: "no processing flag has this id (see /v1/StandingData/processingFlags)"}
	case idName != name:
		return &livestock.FieldError{Code: livestock.CodeSchema, Source: at + "/processingFlagId", Value: fmt.Sprint(id),
			Message: fmt.Sprintf("processingFlagId %d is flag %q but name is %q: give one of them, or both alike", id, idName, name)}
	}
	return nil
}

// readDeviceApplication reads the record of the tags' application: an
// object, or, as Drover took it before, the date of application alone.
func (v *vocab) readDeviceApplication(species livestock.Species, raw json.RawMessage, errs *fieldErrs) *deviceApp {
	const at = "/content/deviceApplication"
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var a deviceApp
	if raw[0] == '"' {
		var s string
		_ = json.Unmarshal(raw, &s) // a JSON string always reads as one
		a.DateOfApplication = &s
	} else if err := decodeStrictAt(raw, &a, at); err != nil {
		errs.add(at, err)
		return nil
	}
	if a.DateOfApplication == nil {
		errs.bad(livestock.CodeMissing, at+"/dateOfApplication", "", "the date the tags were applied is required")
	} else if when, _, err := livestock.ParseMovementTime(*a.DateOfApplication); err != nil {
		errs.add(at+"/dateOfApplication", err)
	} else {
		a.DateOfApplication = ptr(when.String())
	}
	a.BeginBirthPeriod, a.EndBirthPeriod = birthPeriod(errs, at, a.BeginBirthPeriod, a.EndBirthPeriod, false)
	if a.Breed != nil {
		name, known := v.breed(species, *a.Breed)
		if !known {
			errs.bad(livestock.CodeBadEnum, at+"/breed", *a.Breed, "not a breed of "+species.MovementName()+" (see /v1/StandingData)")
		}
		a.Breed = &name
	}
	return &a
}

// bornAfterTagging refuses a device application whose birth period is
// after the day the tags were applied (the live catalogue's 8025 and
// 8040): an animal is tagged on its birth day at the earliest. It runs at
// submission (prepareTransfer), not in readDeviceApplication, which also
// reads stored content: a transfer stored before the rule still decodes.
func bornAfterTagging(m transferModel) []livestock.FieldError {
	a := m.DeviceApplication
	if a == nil || a.DateOfApplication == nil {
		return nil
	}
	_, applied, err := livestock.ParseMovementTime(*a.DateOfApplication)
	if err != nil {
		return nil
	}
	var errs []livestock.FieldError
	for _, p := range []struct {
		name string
		day  *string
	}{{"/beginBirthPeriod", a.BeginBirthPeriod}, {"/endBirthPeriod", a.EndBirthPeriod}} {
		if p.day == nil {
			continue
		}
		if _, day, err := livestock.ParseMovementTime(*p.day); err == nil && day.After(applied) {
			errs = append(errs, livestock.FieldError{Code: livestock.CodeBirthAfterApplication, Source: "/content/deviceApplication" + p.name,
				Value: *p.day, Message: "the birth period is after " + applied.String() + ", the day the tags were applied"})
		}
	}
	return errs
}
