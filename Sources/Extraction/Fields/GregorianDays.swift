/// Day counts in the proleptic Gregorian calendar, by integer arithmetic alone (no
/// `Calendar`): 400-year eras of 146,097 days that start on March 1st, so that the leap day
/// ends a year. The algorithms are Howard Hinnant's `days_from_civil` and `civil_from_days`
/// ("chrono-Compatible Low-Level Date Algorithms"), valid for every `Int` day count that does
/// not overflow.
public enum GregorianDays {
    /// The number of days from 1970-01-01 to a date (negative before it).
    /// - Parameters:
    ///   - year: the year (proleptic: 0 is 1 BC).
    ///   - month: 1–12.
    ///   - day: 1–31 (not checked against the month).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` days after 1970-01-01 (before it when negative).
    /// - Returns: the year, the month (1–12) and the day of the month (1–31).
    public static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
