package io.rdmamon.cli.node;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.cli.failure.CliFailure;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;

import java.util.List;

/** Checks device and interface names given on the command line against what the host has. */
final class Subjects {
    private Subjects() {
    }

    /** Fails with exit 2 listing the devices that exist when {@code device} is not one of them. */
    static void requireDevice(HostReader reader, String device) {
        List<String> devices = reader.deviceNames();
        if (!devices.contains(device)) {
            String known = devices.isEmpty()
                    ? "no RDMA devices under " + reader.hostRoot().resolve("sys/class/infiniband")
                    : "devices: " + String.join(", ", devices);
            throw CliFailure.badInput("unknown device '" + device + "' (" + known + ")");
        }
    }

    /** Fails with exit 2 listing the interfaces that exist when {@code ifname} is not one of them. */
    static void requireNetdev(HostReader reader, String ifname) {
        List<String> netdevs = reader.netdevNames();
        if (!netdevs.contains(ifname)) {
            String known = netdevs.isEmpty()
                    ? "no interfaces under " + reader.hostRoot().resolve("sys/class/net")
                    : "interfaces: " + String.join(", ", netdevs);
            throw CliFailure.badInput("unknown interface '" + ifname + "' (" + known + ")");
        }
    }

    /** The devices of a sample, or only {@code device} when one was asked for. */
    static List<IbDevice> select(HostSample sample, String device) {
        if (device == null) {
            return sample.devices();
        }
        return List.of(find(sample, device));
    }

    /** The named device of a sample; it was checked to exist, so absence means it vanished (exit 1). */
    static IbDevice find(HostSample sample, String device) {
        return sample.devices().stream()
                .filter(d -> d.name().equals(device))
                .findFirst()
                .orElseThrow(() -> CliFailure.runtime("device '" + device + "' disappeared while reading", null));
    }
}
