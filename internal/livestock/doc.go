// Package livestock is Drover's domain: the identifiers of the national
// registry (CPH, MHS, ear tags, RFID, batch numbers, dates), the users and
// holdings they act for, and the error kinds every other package reports in.
//
// Identifiers are value types. A value is only made by its Parse function,
// so a CPH (or Tag, or RFID) that exists is always valid, and code deeper in
// the service never checks a format twice.
//
// This package imports nothing else from Drover; everything else imports it.
package livestock
