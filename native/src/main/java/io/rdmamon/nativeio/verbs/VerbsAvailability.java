package io.rdmamon.nativeio.verbs;

/**
 * @param available true when the library loaded and listed devices (possibly none)
 * @param reason    when not available, a one-line reason starting with {@code verbs unavailable: }
 */
public record VerbsAvailability(boolean available, String reason) {
}
