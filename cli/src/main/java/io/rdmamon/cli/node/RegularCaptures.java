package io.rdmamon.cli.node;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.agent.module.CapturedModuleEepromSource;
import io.rdmamon.agent.qos.QosReader;
import io.rdmamon.agent.sysfs.RegularFiles;
import io.rdmamon.agent.sysfs.RegularFiles.NotRegularFileException;
import io.rdmamon.cli.failure.CliFailure;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Refuses, as bad input (exit 2), a host root whose whole-file captures are not regular files. The readers refuse such
 * a file too, as a failed source (what the agent reports, sampling on); a one-shot command says it up front instead of
 * printing a reading without it. An absent file is no problem here: the readers say what its absence means.
 */
final class RegularCaptures {
    private RegularCaptures() {
    }

    /** What a whole sample reads: {@code etc/nccl.conf} and the module captures of all the host's netdevs. */
    static void requireForSample(HostReader reader) {
        require(reader.hostRoot(), QosReader.NCCL_CONF);
        requireModules(reader, reader.netdevNames());
    }

    /** Each of {@code netdevs}' {@code ethtool/<if>/module} below a captured root. */
    static void requireModules(HostReader reader, List<String> netdevs) {
        Path root = reader.hostRoot();
        if (root.getParent() == null) {
            return; // on / the module comes from the ioctl, not from a capture
        }
        CapturedModuleEepromSource modules = new CapturedModuleEepromSource(root);
        for (String netdev : netdevs) {
            require(root, root.relativize(modules.moduleFile(netdev)).toString());
        }
    }

    private static void require(Path root, String relative) {
        try {
            RegularFiles.require(root.resolve(relative), relative);
        } catch (NotRegularFileException e) {
            throw CliFailure.badInput(e.getMessage());
        } catch (IOException e) {
            // absent or unreadable: the read reports it in its own terms
        }
    }
}
