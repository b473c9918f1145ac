package org.ssbjca.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.stream.IntStream;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.beans.AttemptLog;
import org.ssbjca.it.beans.BreakerService;
import org.ssbjca.it.beans.IdleReader;
import org.ssbjca.it.beans.PolicyService;
import org.ssbjca.it.beans.Recorder;
import org.ssbjca.it.beans.SubsystemRecordingService;
import org.ssbjca.it.beans.TableWorkService;
import org.ssbjca.it.support.BrokerDb;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.LogStore;
import org.ssbjca.it.support.ManualServer;
import org.ssbjca.it.support.RemoteJmx;
import org.ssbjca.it.support.RestartablePostgres;
import org.ssbjca.it.support.Scrape;
import org.ssbjca.it.support.ServerAdmin;
import org.ssbjca.it.support.ServerAdmin.Cli;

/**
 * Issue 14 on a server configured by the recipes of docs/guide/configuration.md and docs/operations/monitoring.md: the
 * shipped {@code ssb-jca.cli}, then the shipped
 * {@code ssb-jca-monitoring.cli} (micrometer with a Prometheus registry, MicroProfile Health, the monitoring WAR), with
 * the readiness threshold set from the server's environment. While messages flow, {@code /prometheus} and
 * {@code /metrics} move and, once they stop, agree with the activation's JMX counters; PostgreSQL stopped makes
 * {@code /health/ready} DOWN after the threshold, and UP again once it is back; fire-and-forget conversations show in
 * the endpoint metric and are listed and ended by the hygiene operations. Issue 47, in a deployment of its own on the
 * same server: a circuit breaker's pause and resume seen at {@code /prometheus}, and the failure policy seeing through
 * the EJB container's wrapping of what a bean throws.
 */
@ExtendWith(ArquillianExtension.class)
class MonitoringIT {

    private static final java.util.logging.Logger FIGURES =
            java.util.logging.Logger.getLogger(MonitoringIT.class.getName());

    private static final String QUEUE = SubsystemRecordingService.QUEUE;
    /** A queue no bean reads: what is sent there and ended at once leaves both endpoints. */
    private static final String LEAK_QUEUE = "ItLeakQueue";
    private static final String ACTIVATION = "activation=\"SubsystemRecordingService@" + QUEUE + "\"";
    private static final int FAILING_SECONDS = 5;
    /** Issue 44: with the beans above, eleven idle queue beans and an idle table bean make 12 + 2 activations. */
    private static final String[] IDLE_QUEUES =
            IntStream.rangeClosed(1, 11).mapToObj(i -> "ItIdleQueue" + i).toArray(String[]::new);
    private static final String IDLE_TABLE = "it_table_idle";
    private static final int ACTIVATIONS = IDLE_QUEUES.length + 3;

    @ArquillianResource
    ContainerController controller;

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "monitoring-beans", managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static WebArchive beans() {
        return Deployments.testWar("monitoring-it.war", SubsystemRecordingService.class, Recorder.class,
                TableWorkService.class);
    }

    /** Issue 47: a bean behind a circuit breaker and one with a failure policy, on their own queues. */
    @Deployment(name = "monitoring-failures", managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static WebArchive failureBeans() {
        return Deployments.testWar("monitoring-failures-it.war", BreakerService.class, PolicyService.class,
                PolicyService.OrderRejected.class, AttemptLog.class, Recorder.class);
    }

    /**
     * {@link IdleReader} declared once per idle queue and once on {@value #IDLE_TABLE} in {@code ejb-jar.xml}, each
     * bound to the adapter in {@code jboss-ejb3.xml}.
     */
    @Deployment(name = "monitoring-idle", managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static JavaArchive idleBeans() {
        StringBuilder beans = new StringBuilder();
        StringBuilder bindings = new StringBuilder();
        for (String queue : IDLE_QUEUES) {
            beans.append(idleBean("Idle" + queue, "BrokerMessageListener", "queue", queue));
            bindings.append(binding("Idle" + queue));
        }
        beans.append(idleBean("IdleTable", "TableRowListener", "table", IDLE_TABLE, "keyColumn", "id",
                "payloadColumn", "body"));
        bindings.append(binding("IdleTable"));
        return Deployments.ejbJar("monitoring-idle.jar", IdleReader.class)
                .addAsManifestResource(new StringAsset("<ejb-jar xmlns=\"https://jakarta.ee/xml/ns/jakartaee\""
                        + " version=\"4.0\"><enterprise-beans>" + beans + "</enterprise-beans></ejb-jar>"),
                        "ejb-jar.xml")
                .addAsManifestResource(new StringAsset("<jboss:ejb-jar xmlns:jboss=\"urn:jboss:domain:ejb3:1.0\""
                        + " xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" xmlns:r=\"urn:resource-adapter-binding\""
                        + " version=\"4.0\"><assembly-descriptor>" + bindings
                        + "</assembly-descriptor></jboss:ejb-jar>"),
                        "jboss-ejb3.xml");
    }

    private static String idleBean(String name, String listener, String... properties) {
        StringBuilder config = new StringBuilder();
        for (int i = 0; i < properties.length; i += 2) {
            config.append("<activation-config-property><activation-config-property-name>").append(properties[i])
                    .append("</activation-config-property-name><activation-config-property-value>")
                    .append(properties[i + 1])
                    .append("</activation-config-property-value></activation-config-property>");
        }
        return "<message-driven><ejb-name>" + name + "</ejb-name><ejb-class>" + IdleReader.class.getName()
                + "</ejb-class><messaging-type>org.ssbjca.api." + listener + "</messaging-type><activation-config>"
                + config + "</activation-config></message-driven>";
    }

    private static String binding(String name) {
        return "<r:resource-adapter-binding><ejb-name>" + name + "</ejb-name><r:resource-adapter-name>ssb-jca.rar"
                + "</r:resource-adapter-name></r:resource-adapter-binding>";
    }

    @Test
    @RunAsClient
    void metricsReadinessAndConversationHygieneOnAServerConfiguredByTheShippedScripts() throws Exception {
        RestartablePostgres pg = RestartablePostgres.create("monitoring-it");
        BrokerDb db = new BrokerDb(pg.jdbcUrl(), RestartablePostgres.USER, RestartablePostgres.PASSWORD)
                .declare(QUEUE, LEAK_QUEUE, BreakerService.QUEUE, PolicyService.QUEUE).declare(IDLE_QUEUES);
        ManualServer.resetBaseDir();
        controller.start(ManualServer.QUALIFIER, ManualServer.config("-Dssb.jca.url=" + pg.jdbcUrl()
                + " -Dssb.jca.user=" + RestartablePostgres.USER + " -Dssb.jca.password=" + RestartablePostgres.PASSWORD
                + " -Dssb.jca.readiness.failing-seconds=" + FAILING_SECONDS));
        boolean beansDeployed = false;
        try {
            Cli adapter = ServerAdmin.cli(System.getProperty("ssb.it.cliScript"),
                    "-Dssb.rar=" + Path.of(System.getProperty("ssb.it.subsystemRar")).toAbsolutePath());
            assertEquals(0, adapter.exit(), adapter.output());
            // the WAR alone on standalone-full.xml, which has neither micrometer nor MicroProfile Health: it deploys,
            // and WildFly leaves both parts out, naming them
            String war = Path.of(System.getProperty("ssb.it.monitoringWar")).toAbsolutePath().toString();
            Cli alone = ServerAdmin.command("deploy " + war);
            assertEquals(0, alone.exit(), "the WAR deploys without the subsystems: " + alone.output());
            assertEquals(1, LogStore.serverLogLines("WELD-000119: Not generating any bean definitions from"
                    + " org.ssbjca.monitoring.AdapterMeters"));
            assertEquals(1, LogStore.serverLogLines("WELD-000119: Not generating any bean definitions from"
                    + " org.ssbjca.monitoring.AdapterReadiness"));
            Cli monitoring = ServerAdmin.cli(System.getProperty("ssb.it.monitoringCli"), "--timeout=120000",
                    "-Dssb.monitoring.war=" + Path.of(System.getProperty("ssb.it.monitoringWar")).toAbsolutePath());
            assertEquals(0, monitoring.exit(), "the monitoring script ran: " + monitoring.output());
            Cli again = ServerAdmin.cli(System.getProperty("ssb.it.monitoringCli"), "--timeout=120000",
                    "-Dssb.monitoring.war=" + Path.of(System.getProperty("ssb.it.monitoringWar")).toAbsolutePath());
            assertEquals(0, again.exit(), "the monitoring script runs again: " + again.output());
            await("running after the script's reload").atMost(Duration.ofSeconds(120)).ignoreExceptions()
                    .until(() -> Scrape.get("/health/ready").statusCode() == 200);
            db.execute("CREATE TABLE " + TableWorkService.TABLE + " (id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL)");
            deployer.deploy("monitoring-beans");
            beansDeployed = true;

            try (RemoteJmx jmx = RemoteJmx.connect(Integer.getInteger("ssb.it.manualManagementPort", 10090))) {
                MBeanServerConnection server = jmx.server();
                ObjectName activation = await("the activation's MBean").atMost(Duration.ofSeconds(60))
                        .until(() -> server.queryNames(new ObjectName("org.ssbjca:type=Activation,*"), null)
                                .stream().findFirst().orElse(null), n -> n != null);
                metricsMoveAndMatchJmx(db, server, activation);
                tableMetricsMatchJmx(db, server);
                deployer.deploy("monitoring-failures");
                try {
                    theBreakerPausesAndResumesSeenFromPrometheus(db);
                    theFailurePolicySeesThroughTheContainersWrapping(db);
                } finally {
                    deployer.undeploy("monitoring-failures");
                }
                db.execute("CREATE TABLE " + IDLE_TABLE + " (id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL)");
                deployer.deploy("monitoring-idle");
                try {
                    scrapeCost(pg, server);
                } finally {
                    deployer.undeploy("monitoring-idle");
                }
                readinessFollowsTheDatabase(pg);
                readinessIsDownAtOnceWhileTheQueueIsDisabled(db);
                leftConversationsAreMeasuredListedAndEnded(db, server, activation);
                aBadThresholdFailsTheDeploymentNamingTheProperty(war);
            }
        } finally {
            try {
                if (beansDeployed) {
                    deployer.undeploy("monitoring-beans");
                }
            } finally {
                controller.stop(ManualServer.QUALIFIER);
                pg.close();
            }
        }
    }

    private void metricsMoveAndMatchJmx(BrokerDb db, MBeanServerConnection server, ObjectName activation)
            throws Exception {
        String run = "monitoring-" + UUID.randomUUID();
        Thread sender = new Thread(() -> {
            for (int i = 0; i < 20; i++) {
                db.send(QUEUE, run + "-" + i, 5, 5);
            }
        });
        sender.start();
        double first = await("deliveries counted at /prometheus").atMost(Duration.ofSeconds(60))
                .until(() -> delivered(), d -> d >= 1);
        double later = await("the count moves while messages flow").atMost(Duration.ofSeconds(60))
                .until(() -> delivered(), d -> d > first);
        sender.join();
        await("all recorded").atMost(Duration.ofSeconds(120))
                .until(() -> db.count("SELECT COUNT(*) FROM it_record WHERE body LIKE ?", run + "%") == 500);
        // once nothing flows, /prometheus, /metrics and JMX give the same numbers
        await("the three agree").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            String prometheus = Scrape.get("/prometheus").body();
            String metrics = Scrape.get("/metrics").body();
            long jmxDelivered = (Long) server.getAttribute(activation, "Delivered");
            return jmxDelivered == 500
                    && Scrape.value(prometheus, "ssb_messages_delivered_total", ACTIVATION) == jmxDelivered
                    && Scrape.value(metrics, "wildfly_resource_adapters_extended_delivered") == jmxDelivered
                    && Scrape.value(prometheus, "ssb_messages_received_total", ACTIVATION)
                            == (Long) server.getAttribute(activation, "Received")
                    && Scrape.value(prometheus, "ssb_deliveries_committed_total", ACTIVATION)
                            == (Long) server.getAttribute(activation, "Committed")
                    && Scrape.value(prometheus, "ssb_delivery_seconds_count", ACTIVATION)
                            == (Long) server.getAttribute(activation, "TimedDeliveries")
                    && Scrape.value(prometheus, "ssb_queue_depth", ACTIVATION) == 0
                    && Scrape.value(metrics, "wildfly_resource_adapters_extended_queue_depth") == 0;
        });
        long start = System.nanoTime();
        HttpResponse<String> prometheus = Scrape.get("/prometheus");
        long prometheusMillis = (System.nanoTime() - start) / 1_000_000;
        start = System.nanoTime();
        String metrics = Scrape.get("/metrics").body();
        long metricsMillis = (System.nanoTime() - start) / 1_000_000;
        double seconds = Scrape.value(prometheus.body(), "ssb_delivery_seconds_sum", ACTIVATION);
        assertTrue(seconds > 0, "the delivery time summary has a sum: " + seconds);
        assertEquals(0, Scrape.value(prometheus.body(), "ssb_readers_reconnecting", ACTIVATION));
        assertEquals(0, Scrape.value(metrics, "wildfly_resource_adapters_extended_reconnecting_readers"));
        FIGURES.info(String.format("while 500 messages flowed /prometheus showed %.0f then %.0f delivered; after, all"
                + " three agree on 500; a scrape of /prometheus took %d ms, of /metrics %d ms; the bean's meters:%n%s%n"
                + "the resource adapter's statistics:%n%s", first, later, prometheusMillis, metricsMillis,
                Scrape.lines(prometheus.body(), "ssb_"), Scrape.lines(metrics, "wildfly_resource_adapters_extended")));
    }

    /**
     * Issue 44: what a scrape of {@code /prometheus} costs with {@value #ACTIVATIONS} activations (12 queue, 2 table,
     * all on the one PostgreSQL) once a first scrape opened the readings' connections: each scrape's time and the
     * PostgreSQL sessions begun meanwhile ({@code pg_stat_database.sessions}, read once every session begun since the
     * first scrape has ended, and so reported itself). The activations are counted from their MBeans and in the
     * scrape. Times and sessions are printed, not asserted: the adapter's background work (housekeeping's repair pass,
     * every 30 s) may open a session of its own during the scrapes, and a pool may keep it open (then it is said
     * still open rather than waited for).
     */
    private void scrapeCost(RestartablePostgres pg, MBeanServerConnection server) throws Exception {
        ObjectName queues = new ObjectName("org.ssbjca:type=Activation,*");
        ObjectName tables = new ObjectName("org.ssbjca:type=TableActivation,*");
        int activations = await("the activations' MBeans").atMost(Duration.ofSeconds(120))
                .until(() -> server.queryNames(queues, null).size() + server.queryNames(tables, null).size(),
                        n -> n >= ACTIVATIONS);
        assertEquals(ACTIVATIONS, activations);
        await("every reader has its thread").atMost(Duration.ofSeconds(60)).until(() -> {
            int waiting = 0;
            for (ObjectName name : server.queryNames(queues, null)) {
                waiting += (Integer) server.getAttribute(name, "WaitingReaders");
            }
            for (ObjectName name : server.queryNames(tables, null)) {
                waiting += (Integer) server.getAttribute(name, "WaitingReaders");
            }
            return waiting == 0;
        });
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(pg.jdbcUrl(), RestartablePostgres.USER,
                RestartablePostgres.PASSWORD)) {
            await("the readers' sessions all begun").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500)).until(() -> ((Number) query(c, "SELECT COUNT(*) FROM"
                            + " pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                            + " AND backend_start > now() - interval '3 seconds'")).longValue() == 0);
            String first = Scrape.get("/prometheus").body();
            long queueActivations = first.lines().filter(l -> l.startsWith("ssb_queue_depth{")).count();
            long tableActivations = first.lines().filter(l -> l.startsWith("ssb_table_readers{")).count();
            assertEquals(ACTIVATIONS - 2, queueActivations, "queue activations in the scrape");
            assertEquals(2, tableActivations, "table activations in the scrape");
            query(c, "SELECT pg_stat_force_next_flush()");
            query(c, "SELECT 1");
            double since = ((Number) query(c, "SELECT extract(epoch FROM now())")).doubleValue();
            long before = sessions(c);
            int scrapes = 5;
            StringBuilder millis = new StringBuilder();
            for (int i = 0; i < scrapes; i++) {
                long start = System.nanoTime();
                assertEquals(200, Scrape.get("/prometheus").statusCode());
                millis.append(i == 0 ? "" : ", ").append((System.nanoTime() - start) / 1_000_000);
            }
            String begunMeanwhile = "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
                    + " AND extract(epoch FROM backend_start) >= " + since;
            long stillOpen = 0; // sessions() counts a session once its backend reported it (at the latest, its end)
            try {
                await("the sessions begun during the scrapes ended").atMost(Duration.ofSeconds(30))
                        .until(() -> ((Number) query(c, begunMeanwhile)).longValue(), n -> n == 0);
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                // a pooled connection the background work opened meanwhile stays open: said, not failed
                stillOpen = ((Number) query(c, begunMeanwhile)).longValue();
            }
            long opened = sessions(c) - before;
            java.lang.management.OperatingSystemMXBean os =
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            FIGURES.info(String.format("with %d activations (%d queue, %d table: MBeans and scrape agree), after a"
                    + " first scrape, %d scrapes of /prometheus took %s ms; PostgreSQL sessions begun meanwhile: %d"
                    + " (%.1f per scrape), and %d still open after 30 s, not yet counted; PostgreSQL %s, jit=%s, JIT"
                    + " available: %s; load average %.2f on %d processors", activations, queueActivations,
                    tableActivations, scrapes, millis, opened,
                    (double) opened / scrapes, stillOpen, query(c, "SHOW server_version"), query(c, "SHOW jit"),
                    query(c, "SELECT pg_jit_available()"), os.getSystemLoadAverage(), os.getAvailableProcessors()));
        }
    }

    private static long sessions(java.sql.Connection c) throws java.sql.SQLException {
        query(c, "SELECT pg_stat_clear_snapshot()");
        return ((Number) query(c, "SELECT sessions FROM pg_stat_database WHERE datname = current_database()"))
                .longValue();
    }

    private static Object query(java.sql.Connection c, String sql) throws java.sql.SQLException {
        try (java.sql.Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getObject(1);
        }
    }

    /** Issue 16: a table activation's meters, beside the queue's, agree with its MBean once its rows are done. */
    private void tableMetricsMatchJmx(BrokerDb db, MBeanServerConnection server) throws Exception {
        ObjectName table = new ObjectName("org.ssbjca:type=TableActivation,name=TableWorkService@"
                + TableWorkService.TABLE);
        String labels = "activation=\"TableWorkService@" + TableWorkService.TABLE + "\"";
        db.execute("INSERT INTO " + TableWorkService.TABLE + " (body) SELECT 'work ' || i FROM "
                + "generate_series(1, 300) i");
        await("the table's rows delivered and counted").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(1)).until(() -> {
                    String prometheus = Scrape.get("/prometheus").body();
                    return (Long) server.getAttribute(table, "DeliveredRows") == 300
                            && Scrape.value(prometheus, "ssb_table_rows_delivered_total", labels) == 300
                            && Scrape.value(prometheus, "ssb_table_rows_available", labels) == 0
                            && Scrape.value(prometheus, "ssb_table_readers", labels) == 2;
                });
        String prometheus = Scrape.get("/prometheus").body();
        assertEquals(0, Scrape.value(prometheus, "ssb_table_deliveries_failed_total", labels));
        assertEquals(0, Scrape.value(prometheus, "ssb_table_rows_set_aside", labels));
        assertEquals(0, db.count("SELECT COUNT(*) FROM " + TableWorkService.TABLE));
        FIGURES.info(String.format("the table activation's meters after 300 rows:%n%s",
                Scrape.lines(prometheus, "ssb_table_")));
    }

    private void readinessFollowsTheDatabase(RestartablePostgres pg) {
        HttpResponse<String> ready = Scrape.get("/health/ready");
        assertEquals(200, ready.statusCode(), ready.body());
        assertTrue(ready.body().contains("\"name\":\"ssb-jca\",\"status\":\"UP\""), ready.body());
        // Taken before the stop: the readers may fail (and the threshold start) while a slow stop is still returning.
        long stopped = System.nanoTime();
        pg.stop();
        HttpResponse<String> down = await("readiness DOWN once the readers fail for " + FAILING_SECONDS + " s")
                .atMost(Duration.ofSeconds(FAILING_SECONDS + 60L)).pollInterval(Duration.ofMillis(250))
                .until(() -> Scrape.get("/health/ready"), r -> r.statusCode() == 503);
        long downMillis = (System.nanoTime() - stopped) / 1_000_000;
        assertTrue(down.body().contains("\"name\":\"ssb-jca\",\"status\":\"DOWN\""), down.body());
        assertTrue(downMillis >= (FAILING_SECONDS - 1) * 1000L, "not DOWN before the threshold: " + downMillis);
        HttpResponse<String> live = Scrape.get("/health/live");
        assertEquals(200, live.statusCode(), "no liveness check of ours: a database down restarts nothing: "
                + live.body());
        String during = Scrape.get("/prometheus").body();
        assertTrue(Scrape.value(during, "ssb_readers_failing_seconds", ACTIVATION) >= FAILING_SECONDS - 1, during);
        assertTrue(Scrape.value(during, "ssb_readers_reconnecting", ACTIVATION) >= 1, during);
        pg.start();
        long started = System.nanoTime();
        await("readiness UP once PostgreSQL is back").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250)).until(() -> Scrape.get("/health/ready").statusCode() == 200);
        long upMillis = (System.nanoTime() - started) / 1_000_000;
        FIGURES.info(String.format("readiness (threshold %d s): DOWN %d ms after PostgreSQL stopped (%s), UP %d ms"
                + " after it was back", FAILING_SECONDS, downMillis, down.body(), upMillis));
    }

    private void readinessIsDownAtOnceWhileTheQueueIsDisabled(BrokerDb db) {
        db.execute("UPDATE ssb.service_queue SET is_receive_enabled = FALSE WHERE queue_name = '" + QUEUE + "'");
        long disabled = System.nanoTime();
        HttpResponse<String> down = await("readiness DOWN once a reader finds the queue disabled")
                .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> Scrape.get("/health/ready"), r -> r.statusCode() == 503);
        long downMillis = (System.nanoTime() - disabled) / 1_000_000;
        assertTrue(down.body().contains("DOWN: queue " + QUEUE + " is disabled"), down.body());
        db.execute("UPDATE ssb.service_queue SET is_receive_enabled = TRUE WHERE queue_name = '" + QUEUE + "'");
        long enabled = System.nanoTime();
        await("readiness UP once the queue is enabled").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250)).until(() -> Scrape.get("/health/ready").statusCode() == 200);
        FIGURES.info(String.format("readiness: DOWN %d ms after the queue was disabled (no threshold), UP %d ms after"
                + " it was enabled", downMillis, (System.nanoTime() - enabled) / 1_000_000));
    }

    private void leftConversationsAreMeasuredListedAndEnded(BrokerDb db, MBeanServerConnection server,
            ObjectName activation) throws Exception {
        db.fireAndForget(LEAK_QUEUE, 7);
        String service = "service=\"" + LEAK_QUEUE + "Service\"";
        String prometheus = await("the endpoint metric shows the left conversations").atMost(Duration.ofSeconds(60))
                .until(() -> Scrape.get("/prometheus").body(),
                        p -> Scrape.value(p, "ssb_conversation_endpoints", service, "state=\"DI\"") == 7);
        assertEquals(7, Scrape.value(prometheus, "ssb_conversation_endpoints", "service=\"" + BrokerDb.CLIENT + "\"",
                "state=\"DO\""));
        CompositeData[] listed = (CompositeData[]) server.invoke(activation, "listConversations", new Object[] {0L},
                new String[] {"long"});
        String rows = java.util.Arrays.stream(listed).map(d -> d.get("service") + "/" + d.get("state") + "="
                + d.get("count")).toList().toString();
        assertTrue(rows.contains(LEAK_QUEUE + "Service/DI=7"), rows);
        int ended = (Integer) server.invoke(activation, "endConversations", new Object[] {LEAK_QUEUE + "Service", "DI",
            0L, 7}, new String[] {"java.lang.String", "java.lang.String", "long", "int"});
        int endedInitiators = (Integer) server.invoke(activation, "endConversations", new Object[] {BrokerDb.CLIENT,
            "DO", 0L, 7}, new String[] {"java.lang.String", "java.lang.String", "long", "int"});
        assertEquals(7, ended);
        assertEquals(7, endedInitiators);
        String after = await("the left conversations gone from the metric").atMost(Duration.ofSeconds(60))
                .until(() -> Scrape.get("/prometheus").body(),
                        p -> Double.isNaN(Scrape.value(p, "ssb_conversation_endpoints", service, "state=\"DI\"")));
        assertEquals(0, db.depth(LEAK_QUEUE), "WITH CLEANUP removed their messages");
        theReadmeAlertsNameExportedMetrics(prometheus);
        FIGURES.info("fire-and-forget: listed " + rows + "; ended " + ended + " + " + endedInitiators
                + " WITH CLEANUP; endpoint metric after: " + Scrape.lines(after, "ssb_conversation_endpoints{"));
    }

    /** Set live as a server system property, which MicroProfile Config reads: the redeployment fails, naming it. */
    private void aBadThresholdFailsTheDeploymentNamingTheProperty(String war) {
        Cli set = ServerAdmin.command("/system-property=ssb.jca.readiness.failing-seconds:add(value=-5)");
        assertEquals(0, set.exit(), set.output());
        Cli refused = ServerAdmin.command("deploy " + war + " --force");
        assertTrue(refused.exit() != 0 && refused.output().contains(
                "ssb.jca.readiness.failing-seconds must be between 0 and 86400 (seconds), was -5"), refused.output());
        Cli fixed = ServerAdmin.command("/system-property=ssb.jca.readiness.failing-seconds:write-attribute(name=value,"
                + " value=" + FAILING_SECONDS + ")");
        assertEquals(0, fixed.exit(), fixed.output());
        Cli deployed = ServerAdmin.command("deploy " + war + " --force");
        assertEquals(0, deployed.exit(), deployed.output());
        await("ready again").atMost(Duration.ofSeconds(60))
                .until(() -> Scrape.get("/health/ready").statusCode() == 200);
        FIGURES.info("a threshold of -5 refused: " + refused.output().lines()
                .filter(l -> l.contains("failing-seconds")).findFirst().orElse("").strip());
    }

    /**
     * Every metric the alert rules of docs/operations/monitoring.md name is exported: the rules are read from the page
     * itself (the lines {@code expr:} of its "Alerts" section).
     */
    private static void theReadmeAlertsNameExportedMetrics(String prometheus) throws java.io.IOException {
        String alerts = org.ssbjca.docs.Docs.section("docs/operations/monitoring.md", "## Alerts");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("ssb_[a-z_]+").matcher(
                String.join("\n", alerts.lines().filter(l -> l.contains("expr:")).toList()));
        java.util.Set<String> names = new java.util.TreeSet<>();
        while (m.find()) {
            names.add(m.group());
        }
        assertTrue(names.size() >= 8, "the rules name the metrics: " + names);
        for (String name : names) {
            assertTrue(prometheus.lines().anyMatch(l -> l.startsWith(name + "{")), name + " is exported");
        }
        FIGURES.info("the monitoring page's alert rules name " + names + ", all exported");
    }

    /**
     * Issue 47 point 2 across the server: {@link BreakerService} fails every delivery (three in a row open its
     * breaker) until a server system property says the service it needs is up. {@code /prometheus} shows the breaker
     * open and its readers parked, then, once the property is set, closed with every message delivered and none
     * dead-lettered.
     */
    private void theBreakerPausesAndResumesSeenFromPrometheus(BrokerDb db) {
        String labels = "activation=\"BreakerService@" + BreakerService.QUEUE + "\"";
        String run = "breaker-" + UUID.randomUUID();
        int messages = 6;
        long sent = System.nanoTime();
        for (int i = 1; i <= messages; i++) {
            db.sendOne(BreakerService.QUEUE, run + "-" + i);
        }
        String open = await("the breaker open at /prometheus, its readers parked").atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(200)).until(() -> Scrape.get("/prometheus").body(),
                        p -> Scrape.value(p, "ssb_activation_breaker_open", labels) == 1
                                && Scrape.value(p, "ssb_readers_breaker_parked", labels) >= 1);
        long openMillis = (System.nanoTime() - sent) / 1_000_000;
        long chargedAtOpen = db.count("SELECT COUNT(*) FROM it_attempt WHERE body LIKE ?", run + "%");
        assertTrue(Scrape.value(open, "ssb_activation_breaker_trips_total", labels) >= 1, open);
        assertEquals(0, Scrape.value(open, "ssb_messages_delivered_total", labels));
        assertEquals(0, Scrape.value(open, "ssb_readers_parked", labels), "a breaker is not a pause");
        Cli up = ServerAdmin.command("/system-property=" + BreakerService.UP + ":add(value=true)");
        assertEquals(0, up.exit(), up.output());
        long flipped = System.nanoTime();
        // the readers it held wake once it closes: a starved one may still count as parked just after
        String closed = await("the breaker closed by a probe, no reader held, every message delivered")
                .atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                .until(() -> Scrape.get("/prometheus").body(),
                        p -> Scrape.value(p, "ssb_activation_breaker_open", labels) == 0
                                && Scrape.value(p, "ssb_readers_breaker_parked", labels) == 0
                                && Scrape.value(p, "ssb_messages_delivered_total", labels) == messages);
        long closedMillis = (System.nanoTime() - flipped) / 1_000_000;
        assertEquals(0, Scrape.value(closed, "ssb_messages_dead_lettered_total", labels));
        assertEquals(messages, db.count("SELECT COUNT(*) FROM it_record WHERE body LIKE ?", run + "%"));
        assertEquals(0, db.count("SELECT COUNT(*) FROM ssb.dead_letter WHERE queue_name = ?", BreakerService.QUEUE));
        FIGURES.info(String.format("breaker (threshold 3, delay 0.5 s to 2 s, 2 readers, %d messages): open and"
                + " parked at /prometheus %d ms after the sends, %d deliveries charged by then, %d in all before the"
                + " service was up; closed and all delivered %d ms after it was; at the open:%n%s", messages,
                openMillis, chargedAtOpen, db.count("SELECT COUNT(*) FROM it_attempt WHERE body LIKE ?", run + "%")
                        - messages, closedMillis, Scrape.lines(open, "ssb_activation_breaker")
                        + "\n" + Scrape.lines(open, "ssb_readers_breaker_parked")));
    }

    /**
     * Issue 47 point 1 across the server: what {@link PolicyService} throws reaches the adapter wrapped by the EJB
     * container, and the policy still finds it. A message failing with {@link IllegalArgumentException} and one
     * failing with the bean's own listed exception reach the bean once and are dead-lettered with that one attempt,
     * the root cause and the wrapper named; a message failing with {@link org.ssbjca.api.TransientFailureException}
     * more often than {@code maxDeliveryAttempts} is delivered as attempt 1 each time and handled in the end.
     */
    private void theFailurePolicySeesThroughTheContainersWrapping(BrokerDb db) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String parse = "parse order 1 of " + run;
        String reject = "reject order 2 of " + run;
        String flaky = "flaky order 3 of " + run;
        db.sendOne(PolicyService.QUEUE, parse);
        db.sendOne(PolicyService.QUEUE, reject);
        db.sendOne(PolicyService.QUEUE, flaky);
        String sql = "SELECT attempts || ' ' || last_error FROM ssb.dead_letter WHERE queue_name = ? AND last_error"
                + " LIKE ? ORDER BY dead_letter_id";
        java.util.List<String> letters = await("two dead letters, the third message handled")
                .atMost(Duration.ofSeconds(120)).until(() -> db.texts(sql, PolicyService.QUEUE, "%" + run + "%"),
                        l -> l.size() == 2 && db.count("SELECT COUNT(*) FROM it_record WHERE body = ?", flaky) == 1);
        // the order of the two is the reader's: each is looked for by its text
        assertTrue(letters.stream().anyMatch(l -> l.startsWith("1 java.lang.IllegalArgumentException: cannot parse "
                + parse + " (thrown as jakarta.ejb.")), letters.toString());
        assertTrue(letters.stream().anyMatch(l -> l.startsWith("1 " + PolicyService.OrderRejected.class.getName()
                + ": rejected " + reject + " (thrown as jakarta.ejb.")), letters.toString());
        String attempts = "SELECT body FROM it_attempt WHERE body LIKE ? ORDER BY id";
        assertEquals(java.util.List.of(parse + "|1"), db.texts(attempts, parse + "%"), "delivered once");
        assertEquals(java.util.List.of(reject + "|1"), db.texts(attempts, reject + "%"), "delivered once");
        assertEquals(java.util.Collections.nCopies(PolicyService.OUTAGE + 1, flaky + "|1"),
                db.texts(attempts, flaky + "%"), "no attempt counted for an outage");
        assertEquals(0, db.depth(PolicyService.QUEUE));
        String labels = "activation=\"PolicyService@" + PolicyService.QUEUE + "\"";
        String prometheus = await("the dead letters counted at /prometheus").atMost(Duration.ofSeconds(30))
                .until(() -> Scrape.get("/prometheus").body(),
                        p -> Scrape.value(p, "ssb_messages_dead_lettered_total", labels) == 2);
        assertEquals(0, Scrape.value(prometheus, "ssb_activation_breaker_trips_total", labels));
        FIGURES.info("failure policy through the EJB container: dead letters " + letters + "; the transient"
                + " message delivered " + (PolicyService.OUTAGE + 1) + " times, each as attempt 1");
    }

    private static double delivered() {
        return Scrape.value(Scrape.get("/prometheus").body(), "ssb_messages_delivered_total", ACTIVATION);
    }
}
