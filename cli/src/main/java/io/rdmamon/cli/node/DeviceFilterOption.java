package io.rdmamon.cli.node;

import io.rdmamon.agent.host.HostReader;
import picocli.CommandLine.Option;

/** {@code -d, --ib-dev DEV} of the reader subcommands that show every device unless one is named. */
public final class DeviceFilterOption {
    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV", description = "Only this device (default: all).")
    String device;

    /** The host's reader, a named device checked to be there (a typo is refused with the devices there are). */
    HostReader open(HostRootOption hostRoot) {
        HostReader reader = hostRoot.open();
        if (device != null) {
            Subjects.requireDevice(reader, device);
        }
        return reader;
    }

    /** The device named, or null for all. */
    String device() {
        return device;
    }
}
