package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.model.Severity;
import io.rdmamon.collector.store.PhysicalLayer;
import io.rdmamon.protocol.model.FecMode;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.rates.CounterGroup;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * fec_ber_high: the port's pre-FEC bit error rate, from its netdev's mlx5 PHY counters
 * (docs/reference/physical-layer.md §4.3), is above
 * the threshold of its modulation (warning), or errors get past FEC (critical).
 *
 * <p>Pre-FEC BER = Δ{@code rx_corrected_bits_phy} / Δ(received bits) over the two samples — the definition of the
 * kernel's mlx5 counters.rst: bits FEC had to correct per bit received. Received bits are Δ{@code rx_bits_phy} where
 * the driver has it; upstream mlx5e does not export it, so otherwise they are estimated as the link's rate × the
 * interval ({@code rate}, Gb/s × 10⁹): the PHY receives idle symbols at line rate when there is no traffic, so this
 * holds on an idle link too; it counts data bits, not line bits (the coding overhead, 64b/66b, 256b/257b and RS
 * parity, is left out), so the estimate slightly overstates the BER, on the safe side. The evidence says "estimated".
 *
 * <p>Thresholds: FEC corrects far more than a healthy link needs, and the rule must fire while there is margin left.
 * NRZ lanes (up to 25 Gb/s each; RS(528,514) when FEC is on, no FEC on many 10/25G links) are healthy well below
 * 10⁻¹⁰, so {@link #NRZ_THRESHOLD} 10⁻⁸ is a sick link; PAM4 lanes (50 and 100 Gb/s, RS(544,514) "KP4", whose
 * correctable pre-FEC limit is ≈ 2.4×10⁻⁴) run at 10⁻⁸..10⁻⁶ by design, so {@link #PAM4_THRESHOLD} is a tenth of
 * that limit. The modulation is read from the port's {@code rate} ({@code 200 Gb/sec (4X HDR)}: 50 Gb/s per lane is
 * PAM4). Any {@code rx_pcs_symbol_err_phy} increase (errors FEC did not correct) is critical.
 *
 * <p>The port's FEC encoding ({@code ethtool --show-fec}, in the sample on the slow cadence) is named in the evidence,
 * decides the modulation when the rate does not (LLRS runs only on 100 Gb/s PAM4 lanes, BASE-R FireCode only on NRZ),
 * and explains symbol errors on a link whose FEC is off: every one is a lost frame, and a PAM4 link cannot run
 * without RS FEC, so the fix is the FEC setting on both ends, not the optic.
 */
public final class FecBerHigh implements PortRule {
    static final double NRZ_THRESHOLD = 1e-8;
    static final double PAM4_THRESHOLD = 2.4e-5;
    /** Lane rates at or above this are PAM4 (50G and 100G per lane); below, NRZ. */
    private static final double PAM4_LANE_GBPS = 50;
    private static final Pattern LANES = Pattern.compile("\\((\\d{1,2})X");

    @Override
    public Rule id() {
        return Rule.FEC_BER_HIGH;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        IbPort port = in.current();
        if (port.ethtool() == null || !port.ethtool().raw().containsKey(PhysicalLayer.CORRECTED_BITS)) {
            return Optional.empty();
        }
        PhysicalLayer.PreFecBer preFec = PhysicalLayer.preFecBer(in.previous(), port, in.elapsedMillis());
        double ber = preFec == null ? Double.NaN : preFec.ber();
        boolean estimated = preFec != null && preFec.estimated();
        double uncorrected = PortDeltas.rate(in, CounterGroup.ETHTOOL, PhysicalLayer.SYMBOL_ERRORS);
        boolean pam4 = pam4(port);
        FecMode fec = port.fec();
        boolean fecOff = fec != null && !fec.correcting();
        double threshold = pam4 ? PAM4_THRESHOLD : NRZ_THRESHOLD;
        boolean high = ber > threshold;
        boolean lost = uncorrected > 0;
        if (!high && !lost) {
            return Optional.empty(); // NaN compares false: no rate is no finding
        }
        Map<String, Double> values = new LinkedHashMap<>();
        StringBuilder text = new StringBuilder();
        if (!Double.isNaN(ber) && !fecOff) { // with FEC off nothing is corrected: the BER says nothing
            values.put("preFecBer", ber);
            text.append(String.format(Locale.ROOT, "pre-FEC BER %.2e%s%s", ber,
                    fec == null || fec.active() == null ? "" : " under " + fec.active() + " FEC",
                    estimated ? " (estimated from the link rate: no rx_bits_phy)" : ""));
            text.append(high ? String.format(Locale.ROOT, ", above the %s threshold %.1e", pam4 ? "PAM4" : "NRZ", threshold)
                    : String.format(Locale.ROOT, ", below the %s threshold %.1e", pam4 ? "PAM4" : "NRZ", threshold));
        }
        if (lost) {
            values.put("uncorrectedSymbolsPerSecond", uncorrected);
            text.append(text.length() == 0 ? "" : "; ").append(Evidence.perSecond(uncorrected));
            if (fecOff) {
                text.append(" symbol errors with FEC off (ethtool --show-fec: ")
                        .append(fec.active() == null ? "none active" : fec.active())
                        .append("; rx_pcs_symbol_err_phy): every one is a lost frame");
                if (pam4) {
                    text.append("; a PAM4 link needs RS FEC: set it on both ends (ethtool --set-fec IF encoding rs)");
                }
            } else {
                text.append(" symbol errors past FEC (rx_pcs_symbol_err_phy): traffic is lost");
            }
        }
        if (port.netdev() != null) {
            text.append(" on ").append(port.netdev());
        }
        return Optional.of(new Finding(Rule.FEC_BER_HIGH, text.toString(), values,
                lost ? Severity.CRITICAL : Severity.WARNING));
    }

    /**
     * PAM4 when the lane rate ({@code rate} / the width in its text) is 50 Gb/s or more; without a rate, when the FEC
     * encoding is LLRS (defined for 100 Gb/s PAM4 lanes only).
     */
    static boolean pam4(IbPort port) {
        if (port.rateBytesPerSecond() == null || port.rate() == null) {
            return port.fec() != null && "LLRS".equals(port.fec().active());
        }
        Matcher m = LANES.matcher(port.rate());
        int lanes = m.find() ? Integer.parseInt(m.group(1)) : 1;
        double laneGbps = port.rateBytesPerSecond() / 125_000_000.0 / Math.max(1, lanes);
        return laneGbps >= PAM4_LANE_GBPS;
    }
}
