package io.rdmamon.agent.host;

import io.rdmamon.agent.kmsg.KernelEvent;
import io.rdmamon.agent.kmsg.KernelEventLog;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.model.SourceStatus;

import java.nio.file.AccessDeniedException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The kernel log's NIC events ({@link KernelEventLog}), each placed on the RDMA device and port it names. Reading
 * {@code /dev/kmsg} needs CAP_SYSLOG where {@code kernel.dmesg_restrict=1}: without it the source is unsupported (how the
 * agent is deployed), not failed, and is not tried again.
 *
 * <p>Not one of the sample's {@link HostSource}s: the log is read once per sample, after the sample (a sample the
 * {@link ReadWatchdog} retries must not read it twice, nor an abandoned one read it concurrently), and never blocks
 * ({@code O_NONBLOCK}).
 */
final class KmsgSource implements Source {
    static final String NAME = "kmsg";

    private final KernelEventLog log;
    private final String subject;
    private final LongSupplier clock;
    private String unsupported;

    KmsgSource(KernelEventLog log, String subject, LongSupplier clock, String unsupported) {
        this.log = log;
        this.subject = subject;
        this.clock = clock;
        this.unsupported = unsupported;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String culprit(String subject) {
        return subject;
    }

    /**
     * {@code sample} with the kernel events logged since the last one, and this source's status, read through
     * {@code run} (its faults, its status for a throw).
     */
    synchronized HostSample complete(HostSample sample, SourceRun run) {
        KernelEvents events = null;
        if (unsupported == null) {
            events = run.read(this, subject, null, () -> {
                try {
                    KernelEvents read = log.sample(s -> place(sample.devices(), s), clock.getAsLong());
                    run.add(SourceStatus.ok(NAME, subject));
                    return read;
                } catch (AccessDeniedException e) {
                    unsupported = subject + ": reading the kernel log needs CAP_SYSLOG (kernel.dmesg_restrict=1)";
                    log.close();
                    return null;
                }
            });
        }
        if (unsupported != null) {
            run.add(SourceStatus.unsupported(NAME, subject, unsupported));
        }
        List<SourceStatus> statuses = new ArrayList<>(sample.sources());
        statuses.addAll(run.statuses());
        return new HostSample(sample.node(), sample.timestampMillis(), sample.devices(), statuses, sample.ncclConf(),
                sample.topology(), events, sample.health());
    }

    /**
     * The device and port {@code subject} names among {@code devices}: by RDMA device name, by netdev, or by PCI
     * function (a VF's record names its own function); the port only where it is the only one that fits.
     */
    static KernelEventLog.Place place(List<IbDevice> devices, KernelEvent.Subject subject) {
        for (IbDevice device : devices) {
            for (IbPort port : device.ports()) {
                if (subject.netdev() != null && subject.netdev().equals(port.netdev())) {
                    return new KernelEventLog.Place(device.name(), Integer.toString(port.port()));
                }
            }
        }
        for (IbDevice device : devices) {
            boolean named = device.name().equals(subject.ibDevice())
                    || device.pci() != null && subject.pci() != null && subject.pci().equals(device.pci().address());
            if (named) {
                String port = device.ports().size() == 1 ? Integer.toString(device.ports().get(0).port()) : "";
                return new KernelEventLog.Place(device.name(), port);
            }
        }
        return KernelEventLog.Place.NOWHERE;
    }
}
