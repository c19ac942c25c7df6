package io.rdmamon.agent.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code protoc} (package protobuf-compiler, installed by scripts/test.sh) encoding a message of the agent's
 * {@code podresources-v1.proto} from protobuf text format: the bytes a real protobuf implementation writes, for the
 * agent's hand-written decoder to read.
 */
final class Protoc {
    private static final Path PROTO_DIR = Path.of("src/main/proto");

    private Protoc() {
    }

    static byte[] encode(String type, String text) throws IOException, InterruptedException {
        Process protoc;
        try {
            protoc = new ProcessBuilder(List.of("protoc", "--proto_path=" + PROTO_DIR, "--encode=v1." + type,
                    "podresources-v1.proto")).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            throw new IOException("protoc not found: install Debian's protobuf-compiler (scripts/test.sh does)", e);
        }
        protoc.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        protoc.getOutputStream().close();
        byte[] encoded = protoc.getInputStream().readAllBytes();
        if (!protoc.waitFor(30, TimeUnit.SECONDS) || protoc.exitValue() != 0) {
            throw new IOException("protoc --encode=v1." + type + " failed on: " + text);
        }
        return encoded;
    }
}
