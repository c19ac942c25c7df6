package io.rdmamon.collector.store;

import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.rates.CounterGroup;
import io.rdmamon.protocol.rates.CounterRate;

/**
 * The physical-layer figures of one port that the API, the live fleet rows and fec_ber_high share, computed here
 * once so the dashboard derives nothing: the pre-FEC bit error rate between two samples and the transceiver's Rx
 * power margin.
 */
public final class PhysicalLayer {
    /** mlx5's PHY counters (docs/reference/physical-layer.md §4.3). */
    public static final String CORRECTED_BITS = "rx_corrected_bits_phy";
    public static final String RECEIVED_BITS = "rx_bits_phy";
    public static final String SYMBOL_ERRORS = "rx_pcs_symbol_err_phy";

    private PhysicalLayer() {
    }

    /**
     * A pre-FEC BER.
     *
     * @param estimated the received bits are the link rate × the interval (no {@code rx_bits_phy})
     */
    public record PreFecBer(double ber, boolean estimated) {
    }

    /**
     * Δ{@code rx_corrected_bits_phy} / Δ(received bits) between two samples of a port (fec_ber_high explains the
     * estimate without {@code rx_bits_phy}); null when the port has no such counter or no rate (first sample, a
     * reset, no link rate).
     */
    public static PreFecBer preFecBer(IbPort previous, IbPort current, long elapsedMillis) {
        if (current.ethtool() == null || !current.ethtool().raw().containsKey(CORRECTED_BITS)) {
            return null;
        }
        double corrected = rate(previous, current, elapsedMillis, CORRECTED_BITS);
        double received = rate(previous, current, elapsedMillis, RECEIVED_BITS);
        boolean estimated = Double.isNaN(received);
        if (estimated) {
            received = current.rateBytesPerSecond() == null ? Double.NaN : current.rateBytesPerSecond() * 8.0;
        }
        double ber = corrected / received;
        return Double.isNaN(ber) || Double.isInfinite(ber) ? null : new PreFecBer(ber, estimated);
    }

    /** An ethtool counter's rate between two samples; NaN without one. */
    public static double rate(IbPort previous, IbPort current, long elapsedMillis, String name) {
        CounterRate rate = PortRates.rate(previous, current, elapsedMillis, CounterGroup.ETHTOOL, name);
        return rate != null && rate.hasRate() ? rate.perSecond() : Double.NaN;
    }

    /**
     * How far a lane's Rx power is above the module's own low warning threshold, in dB (negative: below it); null
     * without a reading, a threshold, or light ({@code 0} W).
     */
    public static Double rxMarginDb(TransceiverModule.Lane lane, TransceiverModule module) {
        if (lane.rxPowerWatts() == null || module.thresholds() == null || module.thresholds().rxPowerWatts() == null) {
            return null;
        }
        double lowWarning = module.thresholds().rxPowerWatts().lowWarning();
        if (!(lane.rxPowerWatts() > 0) || !(lowWarning > 0)) {
            return null;
        }
        return 10 * Math.log10(lane.rxPowerWatts() / lowWarning);
    }

    /** The smallest {@link #rxMarginDb} of the module's lanes: how close its worst lane is; null when none has one. */
    public static Double worstRxMarginDb(TransceiverModule module) {
        if (module == null) {
            return null;
        }
        Double worst = null;
        for (TransceiverModule.Lane lane : module.lanes()) {
            Double margin = rxMarginDb(lane, module);
            if (margin != null && (worst == null || margin < worst)) {
                worst = margin;
            }
        }
        return worst;
    }
}
