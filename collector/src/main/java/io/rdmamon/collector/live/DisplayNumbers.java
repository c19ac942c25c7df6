package io.rdmamon.collector.live;

/**
 * The numbers of the dashboard's fleet rows, at the precision a person reads: four significant digits, written as
 * short JSON number text. A fleet event carries every port's rates every tick (16,000 ports at 2,000 nodes); with
 * all seventeen digits of a double ({@code 1.0818976647887323E10}) a port's facts took 160 bytes, now 101: about a
 * third less to send to each browser and between replicas (the browser's time per tick did not change measurably;
 * docs/performance.md, "Dashboard at fleet size"). The overview shows three significant digits; the REST API and
 * {@code /metrics} keep full precision.
 */
final class DisplayNumbers {
    /** Significant digits kept: one more than the overview shows (three: {@code 12.3 Gb/s}, {@code 99.5 %}). */
    static final int DIGITS = 4;
    private static final long LIMIT = 10_000;
    /** Beyond this decimal exponent (far from any rate, ratio or dB value) the JVM's own text is used. */
    private static final int MAX_EXPONENT = 300;

    private DisplayNumbers() {
    }

    /**
     * {@code value} rounded to {@link #DIGITS} significant digits (half away from zero) as JSON number text: a
     * plain integer or decimal when that is short ({@code 4000000}, {@code 0.955}, {@code 12.34}), else mantissa and
     * exponent ({@code 1082e7}, {@code 1031e-12}). Null for NaN and the infinities, which JSON cannot carry.
     */
    static String text(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return null;
        }
        if (value == 0) {
            return "0";
        }
        double magnitude = Math.abs(value);
        // the exponent of the last digit kept; log10 is exact at powers of ten, and a rounding up to 10^DIGITS is
        // caught below
        int exponent = (int) Math.floor(Math.log10(magnitude)) - (DIGITS - 1);
        if (Math.abs(exponent) > MAX_EXPONENT) {
            return Double.toString(value);
        }
        // multiply by 10^-exponent rather than divide by 10^exponent: 10^n is exact as a double for n <= 22
        long mantissa = Math.round(exponent < 0 ? magnitude * Math.pow(10, -exponent) : magnitude / Math.pow(10, exponent));
        if (mantissa >= LIMIT) {
            mantissa /= 10; // 9999.6 rounded to 10000: one digit less, exactly
            exponent++;
        }
        while (mantissa % 10 == 0) {
            mantissa /= 10;
            exponent++;
        }
        String digits = Long.toString(mantissa);
        String sign = value < 0 ? "-" : "";
        if (exponent >= 0) {
            return exponent + digits.length() <= 7 ? sign + digits + "0".repeat(exponent) : sign + digits + "e" + exponent;
        }
        int point = digits.length() + exponent; // digits before the decimal point
        if (point > 0) {
            return sign + digits.substring(0, point) + "." + digits.substring(point);
        }
        if (point >= -2) {
            return sign + "0." + "0".repeat(-point) + digits;
        }
        return sign + digits + "e" + exponent;
    }
}
