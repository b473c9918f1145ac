package org.ssbjca.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.dmr.ModelNode;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.beans.DefaultAdapterRecordingService;
import org.ssbjca.it.beans.Recorder;
import org.ssbjca.it.beans.SubsystemRecordingService;
import org.ssbjca.it.support.BrokerDb;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.LogStore;
import org.ssbjca.it.support.ManualServer;
import org.ssbjca.it.support.Postgres;
import org.ssbjca.it.support.ServerAdmin;
import org.ssbjca.it.support.ServerAdmin.Cli;

/**
 * Issue 12: the recipe of docs/guide/configuration.md as written: {@code jboss-cli.sh --connect
 * --file=wildfly/ssb-jca.cli -Dssb.rar=...ssb-jca-subsystem.rar} against a server whose database settings come from
 * its own environment (here the system properties {@code ssb.jca.url}, {@code ssb.jca.user}, {@code ssb.jca.password}
 * of the server's JVM), then a bean that records each message through {@code java:/ssb/ConnectionFactory}. Nothing is
 * repacked: the adapter reads PostgreSQL, not the H2 default of the zero-setup RAR.
 */
@ExtendWith(ArquillianExtension.class)
class SubsystemConfigurationIT {

    private static final java.util.logging.Logger FIGURES =
            java.util.logging.Logger.getLogger(SubsystemConfigurationIT.class.getName());

    private static final String QUEUE = SubsystemRecordingService.QUEUE;
    private static final String PASSWORD_SCRIPT = Path.of(System.getProperty("ssb.it.cliScript"))
            .resolveSibling("ssb-jca-password.cli").toString();
    private static final java.util.regex.Pattern ENCRYPTED = java.util.regex.Pattern.compile("\\$\\{ENC::[^}]+}");

    @ArquillianResource
    ContainerController controller;

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "zero-setup-rar", managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive zeroSetupRar() {
        return Deployments.rar();
    }

    @Deployment(name = "subsystem-beans", managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static WebArchive beans() {
        return Deployments.testWar("subsystem-it.war", SubsystemRecordingService.class, Recorder.class);
    }

    @Deployment(name = "default-adapter-beans", managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static WebArchive defaultAdapterBeans() {
        return Deployments.testWar("default-adapter-it.war", DefaultAdapterRecordingService.class, Recorder.class);
    }

    /**
     * docs/guide/deploying-in-wildfly.md on WildFly's default {@code standalone.xml} (no messaging subsystem): a bean
     * that names no resource adapter is refused ({@code default-resource-adapter-name-service} not found, as
     * troubleshooting.md quotes it); the page's command and a reload make ssb-jca the default, and the same bean then
     * receives, through the zero-setup RAR on the server's PostgreSQL. Then monitoring.md's jboss-cli path to the
     * zero-setup RAR's pool reads its size.
     */
    @Test
    @RunAsClient
    void onStandaloneXmlTheDocumentedCommandMakesSsbJcaTheBeansDefault() {
        Postgres pg = Postgres.get();
        BrokerDb db = BrokerDb.of(pg).declare(DefaultAdapterRecordingService.QUEUE);
        ManualServer.resetBaseDir();
        Map<String, String> config = new HashMap<>(ManualServer.config("-Dssb.jca.url="
                + pg.jdbcUrl() + " -Dssb.jca.user=" + pg.user() + " -Dssb.jca.password=" + pg.password()));
        config.put("serverConfig", "standalone.xml");
        controller.start(ManualServer.QUALIFIER, config);
        boolean beansDeployed = false;
        try {
            deployer.deploy("zero-setup-rar");
            Exception refused = assertThrows(Exception.class,
                    () -> deployer.deploy("default-adapter-beans"), "the bean refused on standalone.xml");
            assertTrue(LogStore.serverLogLines("jboss.ejb.default-resource-adapter-name-service") >= 1,
                    "the refusal troubleshooting.md quotes, in server.log: " + refused);
            // WildFly rolled the failed deployment back: nothing of it to remove

            Cli setDefault = command("/subsystem=ejb3:write-attribute(name=default-resource-adapter-name,"
                    + " value=ssb-jca.rar)");
            assertEquals(0, setDefault.exit(), setDefault.output());
            reloaded();
            deployer.deploy("default-adapter-beans");
            beansDeployed = true;
            String body = "default-adapter-" + UUID.randomUUID();
            db.sendOne(DefaultAdapterRecordingService.QUEUE, body);
            await("recorded by the bean on the default resource adapter").atMost(Duration.ofSeconds(60))
                    .until(() -> db.count("SELECT COUNT(*) FROM it_record WHERE body = ?", body) == 1);
            // monitoring.md's jboss-cli read of the zero-setup RAR's pool, the path as the page types it
            Cli pool = command("/deployment=ssb-jca.rar/subsystem=resource-adapters/ironjacamar=ironjacamar/"
                    + "resource-adapter=ssb-jca.rar/connection-definitions=java\\:\\/ssb\\/ConnectionFactory"
                    + ":read-attribute(name=max-pool-size)");
            assertTrue(pool.output().contains("\"result\" => 50"), pool.output());
        } finally {
            try {
                if (beansDeployed) {
                    deployer.undeploy("default-adapter-beans");
                }
            } finally {
                controller.stop(ManualServer.QUALIFIER);
            }
        }
    }

    @Test
    @RunAsClient
    void theShippedCliScriptConfiguresTheAdapterFromTheServersEnvironment() throws IOException {
        Postgres pg = Postgres.get();
        BrokerDb db = BrokerDb.of(pg).declare(QUEUE);
        ManualServer.resetBaseDir();
        controller.start(ManualServer.QUALIFIER, ManualServer.config("-Dssb.jca.url=" + pg.jdbcUrl()
                + " -Dssb.jca.user=" + pg.user() + " -Dssb.jca.password=" + pg.password()));
        boolean beansDeployed = false;
        try {
            deployer.deploy("zero-setup-rar");
            Cli refused = cli();
            assertNotEquals(0, refused.exit(), "refused beside the zero-setup RAR: " + refused.output());
            // the texts docs/operations/troubleshooting.md and configuration.md give
            assertTrue(refused.output().contains("WFLYCTL0212: Duplicate resource")
                    && refused.output().contains("\\\"deployment\\\" => \\\"ssb-jca.rar\\\""), refused.output());
            assertFalse(exists(), "the refused batch left no resource adapter behind");
            FIGURES.info("the script beside the zero-setup RAR is refused: "
                    + refused.output().strip().replace('\n', ' '));
            deployer.undeploy("zero-setup-rar");

            Cli first = cli();
            assertEquals(0, first.exit(), "the script ran: " + first.output());

            deployer.deploy("subsystem-beans");
            beansDeployed = true;
            String body = "subsystem-" + UUID.randomUUID();
            db.sendOne(QUEUE, body);
            await("recorded through the subsystem's connection factory").atMost(Duration.ofSeconds(60))
                    .until(() -> db.count("SELECT COUNT(*) FROM it_record WHERE body = ?", body) == 1);

            assertEquals(0, LogStore.serverLogLines("IJ020016"), "XA recovery on for the connection definition");
            // faults-and-recovery.md: "SSBJCA0006 at start", the branches named after the adapter
            assertTrue(LogStore.serverLogLines("SSBJCA0006: WildFly's transaction manager recovers the readers'"
                    + " branches under the names \"ssb-jca <database>\"") >= 1, "SSBJCA0006 in server.log");
            assertEquals(List.of("connectionUrl"), children("config-properties"),
                    "no user or password in the configuration: the adapter read them from MicroProfile Config");

            // The password from an Elytron credential store: a role that must give its password (scram), the
            // shipped password script, then the adapter's user and password set to the role and the printed
            // expression, and a reload.
            String role = "ssb_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
            String secret = "pw-" + UUID.randomUUID();
            requirePasswordOf(db, role, secret);
            Path secretFile = Files.createTempFile("ssb-secret", ".properties");
            String expression;
            try {
                Files.writeString(secretFile, "ssb.jca.secret=" + secret + "\n");
                Cli encrypt = cli(PASSWORD_SCRIPT, "--properties=" + secretFile, "--resolve-parameter-values");
                assertEquals(0, encrypt.exit(), "the password script ran: " + encrypt.output());
                java.util.regex.Matcher m = ENCRYPTED.matcher(encrypt.output());
                assertTrue(m.find(), "an encrypted expression printed: " + encrypt.output());
                expression = m.group();
            } finally {
                Files.delete(secretFile);
            }
            assertEquals(0, command("/subsystem=resource-adapters/resource-adapter=ssb-jca/config-properties=user"
                    + ":add(value=" + role + ")").exit());
            assertEquals(0, command("/subsystem=resource-adapters/resource-adapter=ssb-jca/config-properties="
                    + "password:add(value=\"" + expression + "\")").exit());
            // the recipe of docs/guide/outbound-api.md for the pool's validation interval (0: every connection checked
            // when handed out)
            assertEquals(0, command("/subsystem=resource-adapters/resource-adapter=ssb-jca/connection-definitions="
                    + "ssb-ConnectionFactory/config-properties=validationIntervalMillis:add(value=0)").exit());
            reloaded();
            String encrypted = "subsystem-encrypted-" + UUID.randomUUID();
            db.sendOne(QUEUE, encrypted);
            await("delivered with the decrypted password").atMost(Duration.ofSeconds(60))
                    .until(() -> db.count("SELECT COUNT(*) FROM it_record WHERE body = ?", encrypted) == 1);
            assertEquals(expression, read("config-properties", "password").asString(),
                    "the configuration holds the encrypted expression, not the password");
            assertEquals(0, LogStore.serverLogLines(secret), "the password in no log line");

            Cli second = cli();
            assertNotEquals(0, second.exit(), "a second run is refused: " + second.output());
            assertTrue(second.output().contains("WFLYCTL0212: Duplicate resource")
                    && second.output().contains("(\"resource-adapter\" => \"ssb-jca\")"), second.output());
            FIGURES.info("a second run of the script is refused: " + second.output().strip().replace('\n', ' '));
            String after = "subsystem-after-" + UUID.randomUUID();
            db.sendOne(QUEUE, after);
            await("still delivered after the refused run").atMost(Duration.ofSeconds(60))
                    .until(() -> db.count("SELECT COUNT(*) FROM it_record WHERE body = ?", after) == 1);

            // configuration.md: a wrong password makes the readers fail, on PostgreSQL with "password authentication
            // failed". The role's password changed and its sessions ended: the readers reconnect with the old one.
            assertEquals(0, LogStore.serverLogLines("password authentication failed"), "no failed login yet");
            long readerFailures = LogStore.serverLogLines("SSBJCA0020");
            db.execute("ALTER ROLE " + role + " PASSWORD 'pw-" + UUID.randomUUID() + "'");
            db.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '" + role + "'");
            await("the readers fail on the wrong password").atMost(Duration.ofSeconds(60))
                    .until(() -> LogStore.serverLogLines("password authentication failed") >= 1);
            assertTrue(LogStore.serverLogLines("SSBJCA0020") > readerFailures, "a reader failure said (SSBJCA0020)");
            FIGURES.info("with a wrong password: " + LogStore.serverLogLines("password authentication failed")
                    + " line(s) of server.log with \"password authentication failed\"");
        } finally {
            try {
                if (beansDeployed) {
                    deployer.undeploy("subsystem-beans");
                }
            } finally {
                controller.stop(ManualServer.QUALIFIER);
            }
        }
    }

    /**
     * The MicroProfile Config recipe of docs/guide/configuration.md: a server with no database settings in its
     * environment, a directory of one file per key (as a Kubernetes secret is mounted) added as a config source of the
     * {@code microprofile-config-smallrye} subsystem, then the shipped script unchanged: the adapter reads its URL,
     * user and password from MicroProfile Config (the script leaves the URL at the H2 default and the user and
     * password empty), and a message is recorded in PostgreSQL. The password is in no attribute of the configuration.
     */
    @Test
    @RunAsClient
    void theDatabaseComesFromMicroProfileConfig() throws IOException, InterruptedException {
        Postgres pg = Postgres.get();
        BrokerDb db = BrokerDb.of(pg).declare(QUEUE);
        Path secrets = Files.createTempDirectory("ssb-jca-secrets");
        Files.writeString(secrets.resolve("ssb.jca.url"), pg.jdbcUrl());
        Files.writeString(secrets.resolve("ssb.jca.user"), pg.user());
        Files.writeString(secrets.resolve("ssb.jca.password"), pg.password());
        ManualServer.resetBaseDir();
        controller.start(ManualServer.QUALIFIER, ManualServer.config(""));
        boolean beansDeployed = false;
        try {
            Cli source = command("/subsystem=microprofile-config-smallrye/config-source=ssb-jca:add(dir={path=\""
                    + secrets.toAbsolutePath() + "\"})");
            assertEquals(0, source.exit(), "the config source added: " + source.output());
            Cli script = cli();
            assertEquals(0, script.exit(), "the script ran: " + script.output());
            // the metrics subsystem exports resources that existed when the server (re)started
            reloaded();

            deployer.deploy("subsystem-beans");
            beansDeployed = true;
            String body = "microprofile-" + UUID.randomUUID();
            db.sendOne(QUEUE, body);
            await("recorded in the database MicroProfile Config named").atMost(Duration.ofSeconds(60))
                    .until(() -> db.count("SELECT COUNT(*) FROM it_record WHERE body = ?", body) == 1);

            // Issue 14: the adapter's counters as the resource adapter's statistics, and at /metrics
            long[] delivered = {-1};
            await("the delivery counted at /metrics").atMost(Duration.ofSeconds(30)).until(() ->
                    (delivered[0] = metric("wildfly_resource_adapters_extended_delivered")) == 1);
            assertEquals(1, metric("wildfly_resource_adapters_extended_activations"));
            Cli statistics = command("/subsystem=resource-adapters/resource-adapter=ssb-jca/statistics=extended"
                    + ":read-attribute(name=Delivered)");
            assertTrue(statistics.output().contains("\"result\" => 1L"), statistics.output());
            // what monitoring.md shows jboss-cli reading of the adapter: its deployment, and the pool of the script's
            // connection definition
            Cli status = command("/deployment=ssb-jca.rar:read-attribute(name=status)");
            assertTrue(status.output().contains("\"result\" => \"OK\""), status.output());
            Cli pool = command("/subsystem=resource-adapters/resource-adapter=ssb-jca/connection-definitions="
                    + "ssb-ConnectionFactory:read-attribute(name=max-pool-size)");
            assertTrue(pool.output().contains("\"result\" => 50"), pool.output());
            long scrapeStart = System.nanoTime();
            String lines = metricLines();
            long scrapeMillis = (System.nanoTime() - scrapeStart) / 1_000_000;
            assertTrue(lines.contains("wildfly_resource_adapters_extended_queue_depth{resource_adapter=\"ssb-jca\"}"),
                    lines);
            FIGURES.info("a scrape of /metrics took " + scrapeMillis + " ms; the resource adapter's statistics: "
                    + lines);
            Cli model = command("/subsystem=microprofile-config-smallrye:read-resource(recursive=true)");
            assertFalse(model.output().contains(pg.password()) && !pg.password().isBlank(),
                    "the password is in a file, not in the configuration: " + model.output());
            long starts = LogStore.serverLogLines("SSBJCA0002");
            assertTrue(starts >= 1, "started");
            assertEquals(starts, LogStore.serverLogLines("SSBJCA0002: ssb-jca started; default database POSTGRESQL"),
                    "the adapter started on PostgreSQL, each time (before and after the reload)");
            FIGURES.info("the adapter read its database from MicroProfile Config (a directory config source) and"
                    + " recorded the message in PostgreSQL");

            // configuration.md: "Change a setting later with ...connectionUrl:write-attribute(name=value, value=...)
            // and a reload": the URL set wins over MicroProfile Config's, the user and password still come from it
            String moved = "ssb_moved_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
            db.execute("CREATE DATABASE " + moved);
            try (BrokerDb movedDb = new BrokerDb(pg.jdbcUrl(moved), pg.user(), pg.password()).declare(QUEUE)) {
                Cli change = command("/subsystem=resource-adapters/resource-adapter=ssb-jca/config-properties="
                        + "connectionUrl:write-attribute(name=value, value=\"" + pg.jdbcUrl(moved) + "\")");
                assertEquals(0, change.exit(), change.output());
                reloaded();
                String afterChange = "moved-" + UUID.randomUUID();
                movedDb.sendOne(QUEUE, afterChange);
                await("recorded in the database the changed URL names").atMost(Duration.ofSeconds(60))
                        .until(() -> movedDb.count("SELECT COUNT(*) FROM it_record WHERE body = ?", afterChange) == 1);
                assertEquals(0, db.count("SELECT COUNT(*) FROM it_record WHERE body = ?", afterChange),
                        "nothing recorded in the first database");
            }
        } finally {
            try {
                if (beansDeployed) {
                    deployer.undeploy("subsystem-beans");
                }
            } finally {
                controller.stop(ManualServer.QUALIFIER);
                try (var files = Files.list(secrets)) {
                    for (Path f : files.toList()) {
                        Files.delete(f);
                    }
                }
                Files.delete(secrets);
            }
        }
    }

    /** @return jboss-cli's run of the shipped ssb-jca.cli, as docs/guide/configuration.md gives it */
    private static Cli cli() {
        return ServerAdmin.cli(System.getProperty("ssb.it.cliScript"),
                "-Dssb.rar=" + Path.of(System.getProperty("ssb.it.subsystemRar")).toAbsolutePath());
    }

    private static Cli cli(String script, String... arguments) {
        return ServerAdmin.cli(script, arguments);
    }

    private static Cli command(String command) {
        return ServerAdmin.command(command);
    }

    private static int managementPort() {
        return Integer.getInteger("ssb.it.manualManagementPort", 10090);
    }

    /** Reloads the manual server and waits until it runs again. */
    private static void reloaded() {
        assertEquals(0, ServerAdmin.reload().exit());
        await("reloaded").atMost(Duration.ofSeconds(120)).ignoreExceptions()
                .until(() -> "running".equals(serverState()));
    }

    /** @return the manual server's {@code server-state} */
    private static String serverState() {
        return ServerAdmin.manual(Operations.createReadAttributeOperation(new ModelNode().setEmptyList(),
                "server-state")).asString();
    }

    /**
     * Creates a PostgreSQL role that must give its password: a {@code scram-sha-256} line for it at the top of
     * {@code pg_hba.conf} (the test server trusts everyone else), then a reload of the configuration.
     */
    private static void requirePasswordOf(BrokerDb db, String role, String secret) throws IOException {
        db.execute("SET password_encryption = 'scram-sha-256'; CREATE ROLE " + role + " LOGIN SUPERUSER PASSWORD '"
                + secret + "'");
        Path hba = Path.of(db.text("SHOW hba_file"));
        Files.writeString(hba, "host all " + role + " 127.0.0.1/32 scram-sha-256\n" + Files.readString(hba));
        db.execute("SELECT pg_reload_conf()");
    }

    /** @return whether the subsystem has the resource adapter {@code ssb-jca} */
    private static boolean exists() {
        ModelNode op = Operations.createOperation("read-children-names", new ModelNode().add("subsystem",
                "resource-adapters"));
        op.get("child-type").set("resource-adapter");
        return ServerAdmin.manual(op).asList().stream().anyMatch(n -> n.asString().equals("ssb-jca"));
    }

    /** @return the value of a metric of the resource adapter ssb-jca at the manual server's /metrics, -1 if none */
    private static long metric(String name) throws IOException, InterruptedException {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^" + name
                + "\\{resource_adapter=\"ssb-jca\"} ([0-9.E]+)$", java.util.regex.Pattern.MULTILINE)
                .matcher(metricLines());
        return m.find() ? (long) Double.parseDouble(m.group(1)) : -1;
    }

    /** @return the lines of the manual server's /metrics that are the adapter's */
    private static String metricLines() throws IOException, InterruptedException {
        java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
                .newBuilder(java.net.URI.create("http://127.0.0.1:" + managementPort() + "/metrics")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        return r.body().lines().filter(l -> l.contains("resource_adapters_extended"))
                .collect(java.util.stream.Collectors.joining("\n"));
    }

    /** @return the names of the subsystem resource adapter's children of a type */
    private static List<String> children(String childType) {
        ModelNode op = Operations.createOperation("read-children-names", new ModelNode()
                .add("subsystem", "resource-adapters").add("resource-adapter", "ssb-jca"));
        op.get("child-type").set(childType);
        return ServerAdmin.manual(op).asList().stream().map(ModelNode::asString).toList();
    }

    /** @return the {@code value} of a child of the subsystem's resource adapter, unresolved */
    private static ModelNode read(String childType, String name) {
        return ServerAdmin.manual(Operations.createReadAttributeOperation(new ModelNode().add("subsystem",
                "resource-adapters").add("resource-adapter", "ssb-jca").add(childType, name), "value"));
    }
}
