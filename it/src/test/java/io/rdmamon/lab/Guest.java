package io.rdmamon.lab;

/** Command lines the lab runs inside its VMs: rdmamon from the shaded jar with the host's JDK, seen over 9p. */
public final class Guest {
    /** The shaded jar at its host path, which the guest sees unchanged through the host's root. */
    public static final String JAR = LabBootFiles.REPOSITORY.resolve("cli/target/rdmamon.jar").toString();
    /** This module's test classes (for {@link GuestVerbs}). */
    public static final String TEST_CLASSES = LabBootFiles.REPOSITORY.resolve("it/target/test-classes").toString();
    /**
     * A JVM as the guest can afford under TCG: C1 only and a small Serial-GC heap, as the agent's launcher runs it;
     * a start costs 15 to 25 s there.
     */
    public static final String JAVA = "java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx192m";
    /** {@code rdmamon} with its arguments to follow. */
    public static final String RDMAMON = JAVA + " -jar " + JAR;

    private Guest() {
    }
}
