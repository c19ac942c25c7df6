package io.rdmamon.lab;

import java.util.List;

/** Command lines the lab runs inside its VMs: rdmamon from the shaded jar with the host's JDK, seen over 9p. */
public final class Guest {
    /** The shaded jar at its host path, which the guest sees unchanged through the host's root. */
    public static final String JAR = LabBootFiles.REPOSITORY.resolve("cli/target/rdmamon.jar").toString();
    /** This module's test classes (for {@link GuestVerbs} and {@link GuestBatch}). */
    public static final String TEST_CLASSES = LabBootFiles.REPOSITORY.resolve("it/target/test-classes").toString();
    /** A JVM as the guest can afford under TCG: C1 only and a small Serial-GC heap, as the agent's launcher runs it. */
    static final List<String> JVM_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx192m");
    /**
     * {@link #JVM_FLAGS} with the classes mapped from {@link GuestClassArchive} (made before the lab boots): a start
     * costs 15 to 60 s under TCG, most of it loading the jar's classes.
     */
    public static final String JAVA = "java -XX:SharedArchiveFile=" + GuestClassArchive.FILE + " "
            + String.join(" ", JVM_FLAGS);
    /** {@code rdmamon} with its arguments to follow. */
    public static final String RDMAMON = JAVA + " -jar " + JAR;
    /** {@link GuestBatch}: several rdmamon commands in one JVM, {@code FILE CMD [ARG…] [-- FILE CMD [ARG…]]…} to follow. */
    public static final String BATCH = JAVA + " -cp " + JAR + ":" + TEST_CLASSES + " " + GuestBatch.class.getName();

    private Guest() {
    }
}
