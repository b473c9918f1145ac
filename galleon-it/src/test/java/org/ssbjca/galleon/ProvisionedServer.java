package org.ssbjca.galleon;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The server that the build provisioned (wildfly-maven-plugin, goal package) run as a user runs it: bin/standalone.sh
 * with the given environment, ports offset by {@code ssb.galleon.portOffset}, output to a file under target/. Stopped
 * by SIGTERM to its JVM. Used by one test thread at a time.
 */
final class ProvisionedServer implements AutoCloseable {

    private static final Path HOME = Path.of(System.getProperty("ssb.galleon.server", "target/server"));
    private static final int OFFSET = Integer.getInteger("ssb.galleon.portOffset", 10000);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final Path output;

    private ProvisionedServer(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    /**
     * Starts the server and waits until the test application answers.
     *
     * @param name names the output file, target/server-NAME.out
     * @param environment variables set for the server (every SSB_JCA_* variable of this JVM is removed first)
     * @return the running server
     */
    static ProvisionedServer start(String name, Map<String, String> environment) throws IOException {
        Path output = HOME.resolveSibling("server-" + name + ".out");
        try (var markers = Files.list(HOME.resolve("standalone/deployments"))) {
            for (Path marker : markers.filter(p -> p.toString().matches(".*\\.(deployed|failed)$")).toList()) {
                Files.delete(marker);
            }
        }
        ProcessBuilder builder = new ProcessBuilder(List.of(HOME.resolve("bin/standalone.sh").toString(),
                "-Djboss.socket.binding.port-offset=" + OFFSET))
                .redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().keySet().removeIf(k -> k.startsWith("SSB_JCA_"));
        builder.environment().putAll(environment);
        ProvisionedServer server = new ProvisionedServer(builder.start(), output);
        try {
            await("the provisioned server answers on " + server.url("/galleon-it/echo")).atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .failFast("the server started with errors", () -> server.output().contains("WFLYSRV0026"))
                    .until(() -> "ready".equals(server.get("/galleon-it/echo")));
        } catch (RuntimeException e) {
            server.close();
            throw new AssertionError("the server did not come up; its output:\n" + server.output(), e);
        }
        return server;
    }

    /**
     * Runs the echo dialog once: one request sent, the MDB's reply awaited by the servlet.
     *
     * @param text the request
     * @return the reply, empty if none came
     */
    String echo(String text) throws IOException, InterruptedException {
        return get("/galleon-it/echo?text=" + URLEncoder.encode(text, StandardCharsets.UTF_8));
    }

    /**
     * @param path a path on the server's HTTP port
     * @param credentials "user:password" for HTTP Basic, or null for none
     * @return the response's status
     */
    int status(String path, String credentials) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(30));
        if (credentials != null) {
            request.header("Authorization", "Basic " + java.util.Base64.getEncoder()
                    .encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /**
     * @param path a path on the management port (open endpoints only: no user is sent)
     * @return the response's status, a space and its body
     */
    String management(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + (9990 + OFFSET) + path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        return response.statusCode() + " " + response.body();
    }

    /** @return what the server wrote to its console so far */
    String output() throws IOException {
        return Files.exists(output) ? Files.readString(output) : "";
    }

    private String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url(path)))
                .timeout(Duration.ofSeconds(90)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode() + " from " + path + ": " + response.body());
        }
        return response.body();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + (8080 + OFFSET) + path;
    }

    /**
     * Stops the server as a service manager would: SIGTERM to its JVM (the child of standalone.sh), whose shutdown
     * hook stops the server; killed if it has not ended within 60 seconds.
     */
    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
