package org.ssbjca.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.logging.Logger;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.beans.Recorder;
import org.ssbjca.it.beans.RestartRecordingService;
import org.ssbjca.it.support.BrokerDb;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.it.support.ManualServer;
import org.ssbjca.it.support.RemoteJmx;
import org.ssbjca.it.support.RestartablePostgres;

/**
 * {@code ssb-jca.rar} and a message-driven bean undeployed and deployed again, several times, while messages flow (each
 * recorded in its delivery's transaction): nothing is lost or recorded twice across the redeploys. Before, 12 of 1,200
 * messages were lost: a listener call that failed while the bean's component stopped was committed. WildFly rolls those
 * calls' transactions back itself, the adapter having marked them: the server's log has no {@code ARJUNA016039} (a
 * commit a reader's branch refused; 30 in one run before the adapter marked them). Nor is a call the container refused
 * counted toward {@code maxDeliveryAttempts} (its {@code EJBComponentUnavailableException}): before, messages that
 * met the stopping bean in three cycles were dead-lettered (3 of 1,200 in one run). It also counts the
 * {@code deployment.ssb-jca.rar} class loaders the server holds after finalization and full collections (its
 * {@code VM.classloaders}): they must not grow with the redeploys. Before, every undeployed RAR's loader stayed (11
 * after 10 cycles): the JDK's bean introspection caches held the activation spec's class by soft references, which
 * full collections do not clear (in the global cache, and in the cache of the thread group of WildFly's MSC threads,
 * which introspect the spec). Now 2 or 3 are left: the deployed one, and at most one more per thread of the
 * long-running pool that first ran one of the adapter's works (jboss-threads 3.9.2 keeps a pool thread's first task in
 * a local variable for the thread's life, see {@link #PINNED_BY_POOL_THREADS}). Runs on the manual server, a JVM no
 * other test deployed the RAR to. With {@code -Dit.argLine=-Dssb.it.heapDump=<file>} it writes the server's heap
 * ({@code jcmd GC.heap_dump}) after the count, for analysis.
 */
@ExtendWith(ArquillianExtension.class)
class RedeployIT {

    /** The manual node's JVM arguments. */
    private static final String NODE_ARGUMENTS = "-Djboss.node.name=manual"
            + " -Djboss.tx.node.id=manual"
            // pgjdbc's cleaner thread (of the driver's loader) ends 1 s after its last use instead of 30 s
            + " -Dpgjdbc.config.cleanup.thread.ttl=1000";

    private static final Logger FIGURES = Logger.getLogger("org.ssbjca.figures");
    private static final String QUEUE = RestartRecordingService.QUEUE;
    private static final int CYCLES = 10;
    private static final String RAR_LOADER = "deployment.ssb-jca.rar";
    /**
     * The most loaders of undeployed RARs that the container's thread pool may keep: one per long-running pool thread
     * that was started for one of the adapter's works, at most as many as run at once (the bean's 4 readers and the
     * PostgreSQL listener's 2 tasks). It does not grow with the number of redeploys.
     */
    private static final int PINNED_BY_POOL_THREADS = 4 + 2;
    private static RestartablePostgres pg;
    private static BrokerDb db;

    @ArquillianResource
    ContainerController controller;

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "redeploy-rar", order = 1, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static ResourceAdapterArchive rar() {
        init();
        return Deployments.rar(IronJacamar.descriptor(pg.jdbcUrl(), RestartablePostgres.USER,
                RestartablePostgres.PASSWORD).xml());
    }

    @Deployment(name = "redeploy-beans", order = 2, managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static WebArchive beans() {
        return Deployments.testWar("redeploy-it.war", RestartRecordingService.class, Recorder.class);
    }

    private static synchronized void init() {
        if (pg == null) {
            pg = RestartablePostgres.create("redeploy-it");
            db = new BrokerDb(pg.jdbcUrl(), RestartablePostgres.USER, RestartablePostgres.PASSWORD).declare(QUEUE);
        }
    }

    @Test
    @RunAsClient
    void redeploysUnderLoadLoseNothingAndLeaveNoClassLoaderBehind() throws Exception {
        init();
        String run = "redeploy-" + UUID.randomUUID();
        int sent = db.send(QUEUE, run, 30, 40);
        ManualServer.resetBaseDir();
        controller.start(ManualServer.QUALIFIER, ManualServer.config(NODE_ARGUMENTS));
        try {
            for (int cycle = 1; cycle <= CYCLES; cycle++) {
                long before = recorded(run);
                deployer.deploy("redeploy-rar");
                deployer.deploy("redeploy-beans");
                await("deliveries in cycle " + cycle).atMost(Duration.ofSeconds(60))
                        .until(() -> recorded(run) > before || recorded(run) == sent);
                deployer.undeploy("redeploy-beans");
                deployer.undeploy("redeploy-rar");
            }
            long recordedInCycles = recorded(run);
            deployer.deploy("redeploy-rar");
            deployer.deploy("redeploy-beans");
            // a call WildFly refused while the bean stopped is not the message's failure: none may be set aside
            await("all recorded").atMost(Duration.ofSeconds(120))
                    .failFast("a message was dead-lettered", () -> deadLetters() > 0)
                    .until(() -> recorded(run) == sent);
            long distinct = db.count("SELECT COUNT(DISTINCT body) FROM it_record WHERE body LIKE ?", run + "%");
            // Finalization and repeated collections: jboss-modules loaders are finalizable, and pgjdbc's cleaner
            // thread keeps its loader for up to 30 s after its last use.
            long[] loaders = {rarLoaders(true), -1};
            long collectingSince = System.nanoTime();
            try {
                // within the bound, and the same at two polls in a row: the figure reported is a settled one
                await("undeployed RARs' loaders collected").atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofSeconds(3)).until(() -> {
                            loaders[1] = loaders[0];
                            loaders[0] = rarLoaders(true);
                            return loaders[0] <= 1 + PINNED_BY_POOL_THREADS && loaders[0] == loaders[1];
                        });
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                // asserted below, after the figures
            }
            long collectedMillis = (System.nanoTime() - collectingSince) / 1_000_000;
            String dump = System.getProperty("ssb.it.heapDump");
            if (dump != null) {
                new ProcessBuilder("jcmd", Long.toString(ManualServer.process().pid()), "GC.heap_dump", dump)
                        .inheritIO().start().waitFor();
            }
            List<String> refused = ManualServer.logLines("ARJUNA016039");
            int readerFailures = ManualServer.logLines("SSBJCA0020").size();
            FIGURES.info(String.format("%d redeploys of ssb-jca.rar and its bean under load: %d sent, %d recorded"
                    + " during the cycles, then all %d recorded, %d distinct; %d %s class loader(s) alive after"
                    + " finalization and full collections for %d ms (1 is the deployed RAR's); server.log: %d"
                    + " ARJUNA016039, %d SSBJCA0020", CYCLES, sent, recordedInCycles, recorded(run), distinct,
                    loaders[0], RAR_LOADER, collectedMillis, refused.size(), readerFailures));
            assertEquals(sent, recorded(run), "none lost, none recorded twice");
            assertEquals(sent, distinct);
            // a delivery failed by the undeploy is rolled back by the container, not committed and refused
            assertEquals(List.of(), refused, "commits a reader's branch refused (Narayana's onePhaseCommit warning)");
            assertTrue(loaders[0] <= 1 + PINNED_BY_POOL_THREADS, loaders[0] + " " + RAR_LOADER + " class loaders alive"
                    + " after " + CYCLES + " redeploys: the undeployed ones are not collected");
            deployer.undeploy("redeploy-beans");
            deployer.undeploy("redeploy-rar");
        } finally {
            controller.stop(ManualServer.QUALIFIER);
        }
    }

    private static long deadLetters() {
        return db.count("SELECT COUNT(*) FROM ssb.dead_letter WHERE queue_name = ?", QUEUE);
    }

    private static long recorded(String run) {
        return db.count("SELECT COUNT(*) FROM it_record WHERE body LIKE ?", run + "%");
    }

    /**
     * @param collect whether to run a full collection first
     * @return the {@value #RAR_LOADER} class loaders in the manual server, from its {@code VM.classloaders}
     */
    private static long rarLoaders(boolean collect) throws Exception {
        // a figure for the report; the drivers' cleaner threads may still hold a loader for up to 30 s
        int port = Integer.getInteger("ssb.it.manualManagementPort", 10090);
        try (RemoteJmx jmx = RemoteJmx.connect(port)) {
            MBeanServerConnection server = jmx.server();
            ObjectName diagnostics = new ObjectName("com.sun.management:type=DiagnosticCommand");
            String[] signature = {String[].class.getName()};
            if (collect) {
                server.invoke(diagnostics, "gcRun", new Object[] {null}, signature);
                server.invoke(diagnostics, "gcRunFinalization", new Object[] {null}, signature);
                server.invoke(diagnostics, "gcRun", new Object[] {null}, signature);
            }
            String loaders = (String) server.invoke(diagnostics, "vmClassloaders", new Object[] {null}, signature);
            return loaders.lines().filter(l -> l.contains("\"" + RAR_LOADER + "\"")).count();
        }
    }

}
