package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.model.QosProfile;
import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PciFunction;

import java.util.Map;
import java.util.Set;

/**
 * Everything the per-port rules look at for one sample of one port.
 *
 * @param device        the port's device (node type, hca_type)
 * @param previous      the port in the node's previous sample; null when there is none (first sample, new port)
 * @param current       the port now
 * @param elapsedMillis time between the two samples' timestamps
 * @param expectedRate  the rate the port should run at; null when nothing is known
 * @param recentFlaps   link_downed + link_error_recovery increases within the flap window, this sample's included
 * @param linkFlaps     the port's flap ledger summed over link_flapping's windows, this sample's included
 * @param previousPci   the PCI function of the port's device in the previous sample; null when there is none
 * @param ncclConf      the node's {@code /etc/nccl.conf}; null when it has none
 * @param fleetQos      the QoS profile of the fleet (configured or the majority of RoCE ports); null when unknown
 * @param rxPowerBaselineWatts each transceiver lane's Rx power baseline before this sample, by lane number
 *                      ({@link RxPowerBaseline}); empty while there is too little history
 * @param portQos       what the QoS rules derive from the port's configuration; null: derived for this input alone
 *                      (the engine passes the view it keeps while the configuration is unchanged)
 * @param topology      the node's GPU↔NIC topology and verdicts; null when it has none (no GPU)
 * @param paths         the pingmesh verdicts raised on the port and the reads of their other ends; null: none
 * @param kernel        what the kernel log said about the port since the previous sample; null: nothing
 */
public record PortInput(IbDevice device, IbPort previous, IbPort current, long elapsedMillis, ExpectedRate expectedRate,
                        long recentFlaps, FlapCounts linkFlaps, PciFunction previousPci, Map<String, String> ncclConf,
                        QosProfile.Fleet fleetQos, Map<Integer, Double> rxPowerBaselineWatts, PortQos portQos,
                        GpuTopology topology, PathContext paths, KernelNews kernel) {

    public PortInput {
        kernel = kernel == null ? KernelNews.NONE : kernel;
        linkFlaps = linkFlaps == null ? FlapCounts.NONE : linkFlaps;
        rxPowerBaselineWatts = rxPowerBaselineWatts == null ? Map.of() : Map.copyOf(rxPowerBaselineWatts);
        portQos = portQos == null ? PortQos.of(device, current, ncclConf) : portQos;
        paths = paths == null ? PathContext.NONE : paths;
    }

    /** An input without kernel news. */
    public PortInput(IbDevice device, IbPort previous, IbPort current, long elapsedMillis, ExpectedRate expectedRate,
                     long recentFlaps, FlapCounts linkFlaps, PciFunction previousPci, Map<String, String> ncclConf,
                     QosProfile.Fleet fleetQos, Map<Integer, Double> rxPowerBaselineWatts, PortQos portQos,
                     GpuTopology topology, PathContext paths) {
        this(device, previous, current, elapsedMillis, expectedRate, recentFlaps, linkFlaps, previousPci, ncclConf,
                fleetQos, rxPowerBaselineWatts, portQos, topology, paths, null);
    }

    /** An input without pingmesh verdicts. */
    public PortInput(IbDevice device, IbPort previous, IbPort current, long elapsedMillis, ExpectedRate expectedRate,
                     long recentFlaps, FlapCounts linkFlaps, PciFunction previousPci, Map<String, String> ncclConf,
                     QosProfile.Fleet fleetQos, Map<Integer, Double> rxPowerBaselineWatts, PortQos portQos,
                     GpuTopology topology) {
        this(device, previous, current, elapsedMillis, expectedRate, recentFlaps, linkFlaps, previousPci, ncclConf,
                fleetQos, rxPowerBaselineWatts, portQos, topology, null);
    }

    /** An input without a GPU topology. */
    public PortInput(IbDevice device, IbPort previous, IbPort current, long elapsedMillis, ExpectedRate expectedRate,
                     long recentFlaps, FlapCounts linkFlaps, PciFunction previousPci, Map<String, String> ncclConf,
                     QosProfile.Fleet fleetQos, Map<Integer, Double> rxPowerBaselineWatts, PortQos portQos) {
        this(device, previous, current, elapsedMillis, expectedRate, recentFlaps, linkFlaps, previousPci, ncclConf,
                fleetQos, rxPowerBaselineWatts, portQos, null);
    }

    /** An input whose QoS view is derived for it alone. */
    public PortInput(IbDevice device, IbPort previous, IbPort current, long elapsedMillis, ExpectedRate expectedRate,
                     long recentFlaps, FlapCounts linkFlaps, PciFunction previousPci, Map<String, String> ncclConf,
                     QosProfile.Fleet fleetQos, Map<Integer, Double> rxPowerBaselineWatts) {
        this(device, previous, current, elapsedMillis, expectedRate, recentFlaps, linkFlaps, previousPci, ncclConf,
                fleetQos, rxPowerBaselineWatts, null);
    }

    /** An input without flap ledger counts, a previous PCI function, the node's nccl.conf or the fleet's QoS profile. */
    public PortInput(IbDevice device, IbPort previous, IbPort current, long elapsedMillis, ExpectedRate expectedRate,
                     long recentFlaps) {
        this(device, previous, current, elapsedMillis, expectedRate, recentFlaps, null, null, null, null, null);
    }

    /** An input without a previous PCI function, the node's nccl.conf or the fleet's QoS profile. */
    public PortInput(IbDevice device, IbPort previous, IbPort current, long elapsedMillis, ExpectedRate expectedRate,
                     long recentFlaps, FlapCounts linkFlaps) {
        this(device, previous, current, elapsedMillis, expectedRate, recentFlaps, linkFlaps, null, null, null, null);
    }

    /** An input without the node's nccl.conf or the fleet's QoS profile. */
    public PortInput(IbDevice device, IbPort previous, IbPort current, long elapsedMillis, ExpectedRate expectedRate,
                     long recentFlaps, FlapCounts linkFlaps, PciFunction previousPci) {
        this(device, previous, current, elapsedMillis, expectedRate, recentFlaps, linkFlaps, previousPci, null, null, null);
    }

    /** An input without flap ledger counts or a previous PCI function. */
    public PortInput(IbDevice device, IbPort previous, IbPort current, long elapsedMillis, ExpectedRate expectedRate,
                     long recentFlaps, Map<String, String> ncclConf, QosProfile.Fleet fleetQos) {
        this(device, previous, current, elapsedMillis, expectedRate, recentFlaps, null, null, ncclConf, fleetQos, null);
    }

    /**
     * What the flap ledger holds for the port.
     *
     * @param inWarningWindow   flaps within link_flapping's warning window
     * @param inCriticalWindow  flaps within its critical window
     * @param saturatedCounters 8-bit PMA counters stuck at 255, which can no longer show a flap
     */
    public record FlapCounts(long inWarningWindow, long inCriticalWindow, Set<String> saturatedCounters) {
        public static final FlapCounts NONE = new FlapCounts(0, 0, Set.of());

        public FlapCounts {
            saturatedCounters = Set.copyOf(saturatedCounters);
        }
    }

    /**
     * @param bytesPerSecond expected {@code rate} in bytes per second
     * @param hcaType        the HCA model it applies to
     * @param linkLayer      the link layer it applies to
     * @param ports          active ports of the model in the fleet that run at it; 0 when configured
     * @param total          active ports of the model in the fleet; 0 when configured
     */
    public record ExpectedRate(long bytesPerSecond, String hcaType, String linkLayer, int ports, int total) {
        /** Where the expectation comes from, for the evidence (built only when there is something to report). */
        public String origin() {
            return ports == 0 ? "configured for " + hcaType
                    : "the rate of " + ports + " of " + total + " active " + hcaType + " " + linkLayer + " ports in the fleet";
        }
    }

    /** Whether counter rates can be computed (a previous sample of the port, taken earlier). */
    public boolean hasRates() {
        return previous != null && elapsedMillis > 0;
    }
}
