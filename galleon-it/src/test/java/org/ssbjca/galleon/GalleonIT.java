package org.ssbjca.galleon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * docs/guide/galleon.md: the server the build provisioned from WildFly's feature pack and ssb-jca's (layers ssb-jca
 * (and ssb-jca-console, ssb-jca-monitoring) and web-server, no CLI step; the test WAR deployed by the plugin) runs the
 * sample's MDB EchoService. First on the embedded default (H2 under the server's data directory), then on PostgreSQL
 * named only by the server's environment (SSB_JCA_URL, SSB_JCA_USER, SSB_JCA_PASSWORD: the URL through the
 * configuration's expression, the user and password through MicroProfile Config).
 */
class GalleonIT {

    private static final String VIEWER = "galleon-viewer";
    private static final String VIEWER_PASSWORD = "viewer-" + UUID.randomUUID();
    private static final Path HOME = Path.of(System.getProperty("ssb.galleon.server", "target/server"));

    @Test
    void theProvisionedServerDeliversOnTheEmbeddedDefault() throws Exception {
        Path h2 = HOME.resolve("standalone/data/ssb-jca/broker.mv.db");
        Files.deleteIfExists(h2);
        addViewer();
        try (ProvisionedServer server = ProvisionedServer.start("h2", Map.of())) {
            String text = "galleon-h2-" + UUID.randomUUID();
            assertEquals("echo: " + text, server.echo(text), "the MDB's reply");
            assertTrue(Files.exists(h2), "the broker is the H2 file under the server's data directory");
            assertFalse(server.output().contains("WFLYCTL0013"), "no failed operation at boot");
            assertEquals(401, server.status("/ssb-jca-console/", null), "the console asks for a user");
            assertEquals(200, server.status("/ssb-jca-console/", VIEWER + ":" + VIEWER_PASSWORD),
                    "the console (layer ssb-jca-console) lets an application user with role ssb-viewer in");
            String ready = server.management("/health/ready");
            assertTrue(ready.startsWith("200 ") && ready.contains("\"ssb-jca\""),
                    "the adapter's readiness check (layer ssb-jca-monitoring): " + ready);
            String scrape = server.management("/prometheus");
            assertTrue(scrape.startsWith("200 ") && scrape.contains("ssb_"), "the adapter's meters: "
                    + scrape.substring(0, Math.min(300, scrape.length())));
        }
    }

    /** As add-user.sh -a would: the user's HEX(MD5(user:ApplicationRealm:password)) and its role, once. */
    private static void addViewer() throws Exception {
        Path users = HOME.resolve("standalone/configuration/application-users.properties");
        if (Files.readString(users).contains(VIEWER + "=")) {
            return;
        }
        byte[] digest = java.security.MessageDigest.getInstance("MD5").digest(
                (VIEWER + ":ApplicationRealm:" + VIEWER_PASSWORD).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Files.writeString(users, "\n" + VIEWER + "=" + java.util.HexFormat.of().formatHex(digest) + "\n",
                java.nio.file.StandardOpenOption.APPEND);
        Files.writeString(HOME.resolve("standalone/configuration/application-roles.properties"),
                "\n" + VIEWER + "=ssb-viewer\n", java.nio.file.StandardOpenOption.APPEND);
    }

    @Test
    void theSameServerDeliversOnPostgresNamedByItsEnvironment() throws Exception {
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("max_prepared_transactions", "20").start()) {
            String url = "jdbc:postgresql://127.0.0.1:" + pg.getPort() + "/postgres";
            Map<String, String> env = Map.of("SSB_JCA_URL", url, "SSB_JCA_USER", "postgres",
                    "SSB_JCA_PASSWORD", "postgres");
            try (ProvisionedServer server = ProvisionedServer.start("postgres", env)) {
                String text = "galleon-pg-" + UUID.randomUUID();
                assertEquals("echo: " + text, server.echo(text), "the MDB's reply");
            }
            try (Connection c = DriverManager.getConnection(url, "postgres", "postgres");
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery(
                            "SELECT COUNT(*) FROM ssb.service_queue WHERE queue_name = 'EchoServiceQueue'")) {
                rs.next();
                assertEquals(1, rs.getInt(1), "the sample's queues were declared in PostgreSQL");
            }
        }
    }
}
