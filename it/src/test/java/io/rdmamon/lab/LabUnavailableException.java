package io.rdmamon.lab;

/** Why the lab cannot run on this machine, in one line that names the missing part. */
public final class LabUnavailableException extends RuntimeException {
    public LabUnavailableException(String reason) {
        super("the Soft-RoCE lab cannot run here: " + reason);
    }
}
