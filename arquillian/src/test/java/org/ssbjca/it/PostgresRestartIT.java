package org.ssbjca.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.beans.PoolProbe;
import org.ssbjca.it.beans.PoolProbeBean;
import org.ssbjca.it.beans.Recorder;
import org.ssbjca.it.beans.RestartRecordingService;
import org.ssbjca.it.support.Await;
import org.ssbjca.it.support.BrokerDb;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.it.support.RestartablePostgres;

/**
 * PostgreSQL stopped and started again (same port, same data) under a running WildFly, without redeploying anything:
 * the inbound readers resume and lose nothing; the outbound pool fails while the database is away and works again
 * once it is back.
 */
@ExtendWith(ArquillianExtension.class)
class PostgresRestartIT {

    /** What this test reports (figures, or why a backend is skipped). */
    private static final java.util.logging.Logger FIGURES =
            java.util.logging.Logger.getLogger(PostgresRestartIT.class.getName());

    private static final String QUEUE = RestartRecordingService.QUEUE;
    private static final String WAR = "postgres-restart-it";
    private static RestartablePostgres pg;
    private static BrokerDb db;

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        init();
        return Deployments.rar(IronJacamar.descriptor(pg.jdbcUrl(), RestartablePostgres.USER,
                RestartablePostgres.PASSWORD).xml());
    }

    @Deployment(name = "beans", order = 2, testable = false)
    static WebArchive beans() {
        return Deployments.testWar(WAR + ".war", RestartRecordingService.class, Recorder.class, PoolProbe.class,
                PoolProbeBean.class);
    }

    /** The server outlives the test class: WildFly still uses it while Arquillian undeploys; zonky stops it at exit. */
    private static synchronized void init() {
        if (pg == null) {
            pg = RestartablePostgres.create("restart-it");
            db = new BrokerDb(pg.jdbcUrl(), RestartablePostgres.USER, RestartablePostgres.PASSWORD)
                    .declare(QUEUE, PoolProbeBean.QUEUE);
        }
    }

    @Test
    @RunAsClient
    void deliveryResumesWithinTenSecondsOfThePostgresReturnAndNothingIsLost() {
        String run = "restart-" + UUID.randomUUID();
        int sent = db.send(QUEUE, run, 30, 100);
        Await.count("recorded before the stop", sent / 4, Duration.ofSeconds(60), () -> recorded(run));

        pg.stop();
        Instant stoppedAt = Instant.now();
        Await.pause(Duration.ofSeconds(5)); // the outage
        pg.start();
        Instant restartedAt = Instant.now();
        long inDoubt = db.prepared();
        long atRestart = recorded(run);

        await("a delivery committed after the restart").atMost(Duration.ofSeconds(30))
                .until(() -> db.count("SELECT COUNT(*) FROM it_record WHERE body LIKE ? AND recorded_at > ?", run + "%",
                        restartedAt) > 0);
        long resumedMillis = db.count("SELECT (EXTRACT(EPOCH FROM MIN(recorded_at) - ?::timestamptz) * 1000)::bigint "
                + "FROM it_record WHERE body LIKE ? AND recorded_at > ?", restartedAt, run + "%", restartedAt);
        try {
            Await.count("all recorded", sent, Duration.ofSeconds(200), () -> recorded(run));
        } catch (AssertionError e) {
            FIGURES.info(String.format("stuck: %d waiting in the queue, %d prepared transactions, %d failed-delivery "
                    + "rows, %d dead letters", db.depth(QUEUE), db.prepared(),
                    db.count("SELECT COUNT(*) FROM ssb.delivery_attempt"),
                    db.count("SELECT COUNT(*) FROM ssb.dead_letter")));
            throw e;
        }
        Instant doneAt = Instant.now();
        await("no transaction left in doubt").atMost(Duration.ofSeconds(200))
                .until(() -> db.prepared() == 0);
        await("queue drained").atMost(Duration.ofSeconds(30)).until(() -> db.depth(QUEUE) == 0);

        long count = recorded(run);
        long distinct = db.count("SELECT COUNT(DISTINCT body) FROM it_record WHERE body LIKE ?", run + "%");
        FIGURES.info(String.format("PostgreSQL restart: down %d ms; %d of %d recorded before it came back, %d "
                + "transactions in doubt; delivery resumed %d ms after its return; all %d recorded %d ms after its "
                + "return; %d rows, %d distinct", Duration.between(stoppedAt, restartedAt).toMillis(), atRestart, sent,
                inDoubt, resumedMillis, sent, Duration.between(restartedAt, doneAt).toMillis(), count, distinct));
        // the readers' delays are capped at 2 s; the rest is a reconnect, a RECEIVE and an XA delivery, which take
        // seconds on a slow machine
        assertTrue(resumedMillis < 10_000, "delivery resumed " + resumedMillis + " ms after PostgreSQL returned");
        assertEquals(sent, count, "none lost, none recorded twice");
        assertEquals(sent, distinct, "none lost");
        assertEquals(0, db.count("SELECT COUNT(*) FROM ssb.dead_letter"), "an outage dead-letters nothing");
    }

    @Test
    @RunAsClient
    void theOutboundPoolFailsWhilePostgresIsDownAndWorksAgainOnceItIsBack() throws Exception {
        String run = "pool-" + UUID.randomUUID();
        List<String> before = callConcurrently(run + "-before", 4, 5);
        assertTrue(before.stream().allMatch("ok"::equals), "the pool works: " + before);

        pg.stop();
        List<String> down = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            down.add(call(run + "-down-" + i));
        }
        pg.start();
        Instant back = Instant.now();

        List<String> after = new ArrayList<>();
        String first = call(run + "-after-0");
        after.add(first);
        Instant firstOkAt = null;
        for (int i = 1; firstOkAt == null && i < 100; i++) {
            if ("ok".equals(after.get(after.size() - 1))) {
                firstOkAt = Instant.now();
            } else {
                Await.pause(Duration.ofMillis(100)); // one call every 100 ms
                after.add(call(run + "-after-" + i));
            }
        }
        List<String> later = callConcurrently(run + "-later", 4, 5);
        long failedAfter = after.stream().filter(r -> !"ok".equals(r)).count();
        long okTotal = before.size() + after.size() - failedAfter + later.stream().filter("ok"::equals).count();
        FIGURES.info(String.format("outbound pool across a PostgreSQL restart: %d calls while down, all failed (%s); "
                + "after its return %d call(s) failed before the first success (%d ms), then %d of %d concurrent calls "
                + "ok", down.size(), down.get(0), failedAfter,
                firstOkAt == null ? -1 : Duration.between(back, firstOkAt).toMillis(),
                later.stream().filter("ok"::equals).count(), later.size()));

        assertTrue(down.stream().noneMatch("ok"::equals), "calls fail while the database is down: " + down);
        assertTrue(firstOkAt != null, "calls work again after the database returned: " + after);
        assertEquals(0, failedAfter, "no call fails once the database is back (stale pooled connections are "
                + "not handed out): " + after);
        assertTrue(later.stream().allMatch("ok"::equals), "the whole pool works again: " + later);
        assertEquals(okTotal, db.count("SELECT COUNT(*) FROM ssb.message WHERE queue_name = ? AND "
                + "convert_from(message_body, 'UTF8') LIKE ?", PoolProbeBean.QUEUE, run + "%"),
                "every call that answered ok committed its message; no failed call left one");
    }

    private static long recorded(String run) {
        return db.count("SELECT COUNT(*) FROM it_record WHERE body LIKE ?", run + "%");
    }

    private static List<String> callConcurrently(String prefix, int threads, int each) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                for (int i = 0; i < each; i++) {
                    String body = prefix + "-" + t + "-" + i;
                    results.add(pool.submit(() -> call(body)));
                }
            }
            List<String> out = new ArrayList<>();
            for (Future<String> f : results) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private static String call(String body) {
        int port = 8080 + Integer.getInteger("ssb.it.portOffset", 0);
        URI uri = URI.create("http://127.0.0.1:" + port + "/" + WAR + "/pool?body=" + body);
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri)
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : r.statusCode() + " " + r.body();
        } catch (Exception e) {
            return "client: " + e;
        }
    }
}
