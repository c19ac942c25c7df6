package io.rdmamon.agent.sysfs;

import io.rdmamon.protocol.model.IbDevice;

import java.util.List;

/**
 * What sysfs gave for one device.
 *
 * @param name     the device directory name
 * @param device   the device, ports and netdev mapping included; null when the device vanished
 *                 during the read (then nothing partial is kept)
 * @param problems one line per file that could not be read or parsed, path relative to the host root
 */
public record DeviceReading(String name, IbDevice device, List<String> problems) {
    public DeviceReading {
        problems = List.copyOf(problems);
    }
}
