package io.rdmamon.agent.host;

/**
 * Faults injected before a source's read, to prove that any failure of any registered source costs only that source
 * ({@link HostReader.Builder#faults}). What a fault does is what a broken host or a bug does: throw (with any message,
 * however long or unprintable) or never return. Production readers use {@link #NONE}.
 */
@FunctionalInterface
public interface SourceFaults {
    SourceFaults NONE = (source, subject) -> {
    };

    /** Called before {@code source} reads {@code subject}; may throw or block, as the read itself could. */
    void before(String source, String subject) throws Exception;
}
