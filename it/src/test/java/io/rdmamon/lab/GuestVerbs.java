package io.rdmamon.lab;

import java.util.HexFormat;

import io.rdmamon.nativeio.verbs.GidEntryAttributes;
import io.rdmamon.nativeio.verbs.JnrVerbs;
import io.rdmamon.nativeio.verbs.PortAttributes;
import io.rdmamon.nativeio.verbs.Verbs;

/**
 * Run inside a lab VM ({@code java -cp rdmamon.jar:it/target/test-classes}): prints what rdmamon's verbs source
 * ({@link JnrVerbs}: libibverbs through jnr-ffi) answers for every device, port and non-empty GID, one line each,
 * for {@link SoftRoceAgreementIT} to hold against sysfs and {@code ibv_devinfo -v}.
 * Lines: {@code device NAME fw=… nodeGuid=HEX sysImageGuid=HEX ports=N}, {@code port DEV/P key=value…},
 * {@code gid DEV/P/INDEX gid=HEX type=N netdevIndex=N}.
 */
public final class GuestVerbs {
    private GuestVerbs() {
    }

    public static void main(String[] args) throws Exception {
        Verbs verbs = new JnrVerbs();
        if (!verbs.availability().available()) {
            System.out.println("unavailable " + verbs.availability().reason());
            System.exit(1);
        }
        for (String device : verbs.deviceNames()) {
            var attributes = verbs.queryDevice(device);
            System.out.printf("device %s fw=%s nodeGuid=%016x sysImageGuid=%016x ports=%d%n", device,
                    attributes.firmwareVersion(), attributes.nodeGuid(), attributes.sysImageGuid(),
                    attributes.physicalPortCount());
            for (int port = 1; port <= attributes.physicalPortCount(); port++) {
                PortAttributes p = verbs.queryPort(device, port);
                System.out.printf("port %s/%d state=%d physState=%d maxMtu=%d activeMtu=%d gidTableLength=%d"
                                + " portCapFlags=%d lid=%d smLid=%d activeWidth=%d activeSpeed=%d linkLayer=%d%n",
                        device, port, p.state(), p.physState(), p.maxMtu(), p.activeMtu(), p.gidTableLength(),
                        p.portCapFlags(), p.lid(), p.smLid(), p.activeWidth(), p.activeSpeed(), p.linkLayer());
                for (int index = 0; index < p.gidTableLength(); index++) {
                    GidEntryAttributes gid = verbs.queryGid(device, port, index);
                    if (gid != null) {
                        System.out.printf("gid %s/%d/%d gid=%s type=%d netdevIndex=%d%n", device, port, index,
                                HexFormat.of().formatHex(gid.gid()), gid.type(), gid.netdevIndex());
                    }
                }
            }
        }
    }
}
