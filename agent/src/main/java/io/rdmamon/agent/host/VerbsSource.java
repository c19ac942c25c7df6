package io.rdmamon.agent.host;

import io.rdmamon.agent.host.ReadWatchdog.StuckReadException;
import io.rdmamon.agent.verbs.VerbsPortReader;
import io.rdmamon.nativeio.verbs.VerbsException;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.model.VerbsPortAttributes;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Each port's {@code ibv_query_port} attributes, one {@code verbs} status per device: unsupported when the host has no
 * libibverbs or its kernel no uverbs (nothing failed), failed listing each port whose query failed, else ok.
 */
final class VerbsSource implements DeviceSource {
    static final String NAME = "verbs";

    private final VerbsPortReader verbs;
    private final ReadWatchdog watchdog;
    /** Why verbs cannot be queried this sample; null when they can. */
    private String unavailable;

    VerbsSource(VerbsPortReader verbs, ReadWatchdog watchdog) {
        this.verbs = verbs;
        this.watchdog = watchdog;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String culprit(String device) {
        return "libibverbs";
    }

    @Override
    public void sampleStarted() {
        // one ibv_get_device_list a sample, not one a device
        unavailable = verbs.unavailableReason();
    }

    @Override
    public IbDevice read(IbDevice device, Consumer<SourceStatus> statuses) {
        if (unavailable != null) {
            statuses.accept(SourceStatus.unsupported(NAME, device.name(), unavailable));
            return device;
        }
        List<String> problems = new ArrayList<>();
        List<IbPort> ports = new ArrayList<>();
        for (IbPort port : device.ports()) {
            String call = "ibv_query_port(" + device.name() + ", " + port.port() + ")";
            VerbsPortAttributes attributes = null;
            try {
                attributes = watchdog.watch(call, () -> verbs.queryPort(device.name(), port.port()));
            } catch (VerbsException | StuckReadException e) {
                problems.add(call + ": " + e.getMessage());
            } catch (RuntimeException e) {
                // the binding or a bug on one port: the device's other ports are still queried
                problems.add(call + ": " + e);
            }
            ports.add(port.toBuilder().verbs(attributes).build());
        }
        statuses.accept(problems.isEmpty() ? SourceStatus.ok(NAME, device.name())
                : SourceStatus.failed(NAME, device.name(), String.join("; ", problems)));
        return device.withPorts(ports);
    }
}
