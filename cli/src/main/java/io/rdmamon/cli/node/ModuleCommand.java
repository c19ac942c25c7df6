package io.rdmamon.cli.node;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.cli.failure.CliFailure;
import io.rdmamon.protocol.model.TransceiverModule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code rdmamon module -i IF}: the transceiver in the interface's cage, decoded (like {@code ethtool -m IF}). */
@Command(name = "module",
        description = "The transceiver of an interface, decoded from its EEPROM: identity, temperature, voltage, and per"
                + " lane Rx/Tx power (mW and dBm) and bias against the module's own thresholds (like ethtool -m IF)."
                + " Reads the ioctl on /, <root>/ethtool/IF/module under another --host-root.")
public final class ModuleCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    HostRootOption hostRoot;

    @Option(names = {"-i", "--interface"}, paramLabel = "IF", required = true, description = "The interface.")
    String ifname;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    @Override
    public Integer call() {
        HostReader reader = hostRoot.open();
        Subjects.requireNetdev(reader, ifname);
        RegularCaptures.requireModules(reader, List.of(ifname));
        TransceiverModule module;
        try {
            module = reader.readModule(ifname);
        } catch (IOException e) {
            throw CliFailure.runtime(e.getMessage(), e);
        }
        var out = spec.commandLine().getOut();
        if (module == null) {
            out.println(ifname + ": no module (no cage, an empty cage, or no capture under the host root)");
        } else if (json) {
            out.println(JsonOutput.write(module));
        } else {
            out.print(text(module));
        }
        out.flush();
        return 0;
    }

    static String text(TransceiverModule m) {
        StringBuilder text = new StringBuilder();
        line(text, "Identifier", String.format(Locale.ROOT, "0x%02x (%s, %s)", m.identifier(), m.type(), m.standard()));
        line(text, "Vendor name", m.vendor());
        line(text, "Vendor PN", m.part());
        line(text, "Vendor rev", m.revision());
        line(text, "Vendor SN", m.serial());
        line(text, "Date code", m.date());
        TransceiverModule.Thresholds t = m.thresholds();
        if (m.temperatureCelsius() != null) {
            line(text, "Module temperature", String.format(Locale.ROOT, "%.2f degrees C", m.temperatureCelsius())
                    + limits(t == null ? null : t.temperatureCelsius(), 1, "%.2f"));
        }
        if (m.voltageVolts() != null) {
            line(text, "Module voltage", String.format(Locale.ROOT, "%.4f V", m.voltageVolts())
                    + limits(t == null ? null : t.voltageVolts(), 1, "%.4f"));
        }
        for (TransceiverModule.Lane lane : m.lanes()) {
            if (lane.txBiasAmperes() != null) {
                line(text, "Laser bias current (Channel " + lane.lane() + ")",
                        String.format(Locale.ROOT, "%.3f mA", lane.txBiasAmperes() * 1e3)
                                + limits(t == null ? null : t.txBiasAmperes(), 1e3, "%.3f"));
            }
            if (lane.txPowerWatts() != null) {
                line(text, "Transmit avg optical power (Channel " + lane.lane() + ")", power(lane.txPowerWatts())
                        + limits(t == null ? null : t.txPowerWatts(), 1e3, "%.4f"));
            }
            if (lane.rxPowerWatts() != null) {
                line(text, "Rcvr signal avg optical power (Channel " + lane.lane() + ")", power(lane.rxPowerWatts())
                        + limits(t == null ? null : t.rxPowerWatts(), 1e3, "%.4f"));
            }
        }
        m.notes().forEach(note -> line(text, "Note", note));
        return text.toString();
    }

    /** {@code 1.4228 mW / 1.53 dBm}, as ethtool prints power; 0 mW is {@code -inf dBm}. */
    static String power(double watts) {
        double milliwatts = watts * 1e3;
        String dbm = milliwatts > 0 ? String.format(Locale.ROOT, "%.2f", 10 * Math.log10(milliwatts)) : "-inf";
        return String.format(Locale.ROOT, "%.4f mW / %s dBm", milliwatts, dbm);
    }

    /** {@code  [warn 0.0089..0.4467, alarm 0.0071..0.5623]} in the reading's unit; empty without thresholds. */
    private static String limits(TransceiverModule.Limits limits, double scale, String format) {
        if (limits == null) {
            return "";
        }
        return String.format(Locale.ROOT, "  [warn " + format + ".." + format + ", alarm " + format + ".." + format + "]",
                limits.lowWarning() * scale, limits.highWarning() * scale, limits.lowAlarm() * scale,
                limits.highAlarm() * scale);
    }

    private static void line(StringBuilder text, String name, String value) {
        if (value != null) {
            text.append('\t').append(String.format(Locale.ROOT, "%-48s", name)).append(": ").append(value).append('\n');
        }
    }
}
