package org.ssbjca.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.logging.Logger;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.dmr.ModelNode;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.beans.SlowBoot;
import org.ssbjca.it.support.LogStore;
import org.ssbjca.it.support.ManualServer;
import org.ssbjca.it.support.Scrape;
import org.ssbjca.it.support.ServerAdmin;
import org.ssbjca.it.support.ServerAdmin.Cli;

/**
 * Issue 44: the shipped {@code ssb-jca-monitoring.cli} on a server slowed down on purpose (a deployment whose start
 * takes {@value SlowBoot#MILLIS} ms, so every reload takes longer than jboss-cli's default wait of 6 s). Run without
 * {@code --timeout}, as the user ran it, the script still deploys the WAR and succeeds, saying the server is
 * still starting, and the reload completes on its own; run again as docs/operations/monitoring.md says, it changes
 * nothing and does not reload; with a reload due, the page's command waits for the slow reload and the endpoints answer
 * at once.
 */
@ExtendWith(ArquillianExtension.class)
class MonitoringScriptIT {

    private static final Logger FIGURES = Logger.getLogger(MonitoringScriptIT.class.getName());
    /** The monitoring page's option: jboss-cli waits up to 2 minutes for a reloaded server. */
    private static final String README_TIMEOUT = "--timeout=120000";

    @ArquillianResource
    ContainerController controller;

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "slow-boot", managed = false, testable = false)
    @TargetsContainer(ManualServer.QUALIFIER)
    static JavaArchive slowBoot() {
        return ShrinkWrap.create(JavaArchive.class, "slow-boot.jar").addClasses(SlowBoot.class);
    }

    @Test
    @RunAsClient
    void theScriptSurvivesASlowReloadAndReloadsOnlyWhenItChangedSomething() throws Exception {
        ManualServer.resetBaseDir();
        controller.start(ManualServer.QUALIFIER, ManualServer.config(""));
        try {
            deployer.deploy("slow-boot");
            assertEquals(1, LogStore.serverLogLines(SlowBoot.STARTED));

            long bootedBefore = LogStore.serverLogLines("WFLYSRV0025");
            long started = System.nanoTime();
            Cli first = script();
            long firstMillis = (System.nanoTime() - started) / 1_000_000;
            assertEquals(0, first.exit(), "the script succeeds on a slow server: " + first.output());
            assertTrue(first.output().contains("the server is still starting"),
                    "the reload outlasted jboss-cli's default wait, and the script said so: " + first.output());
            // done when the server also logged its start (WFLYSRV0025), which can come after the endpoints answer
            await("the reload done on its own").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions().until(() -> LogStore.serverLogLines(SlowBoot.STARTED) == 2
                            && Scrape.get("/prometheus").statusCode() == 200
                            && LogStore.serverLogLines("WFLYSRV0025") == bootedBefore + 1);
            assertEquals("OK", deploymentStatus(), "the WAR deployed");

            long boots = LogStore.serverLogLines("WFLYSRV0025");
            Cli second = script(README_TIMEOUT);
            assertEquals(0, second.exit(), second.output());
            assertFalse(second.output().contains("reload"), "nothing to do: " + second.output());
            assertEquals(boots, LogStore.serverLogLines("WFLYSRV0025"), "the second run did not reload");
            assertEquals(2, LogStore.serverLogLines(SlowBoot.STARTED), "the second run did not reload");

            // a reload due (a change that needs one): the page's command waits for the slow reload
            ModelNode needsReload = Operations.createWriteAttributeOperation(
                    new ModelNode().add("subsystem", "logging"), "add-logging-api-dependencies", false);
            ServerAdmin.manual(needsReload);
            started = System.nanoTime();
            Cli third = script(README_TIMEOUT);
            long thirdMillis = (System.nanoTime() - started) / 1_000_000;
            assertEquals(0, third.exit(), third.output());
            assertTrue(third.output().contains("reloaded; the server is running"), third.output());
            assertEquals(3, LogStore.serverLogLines(SlowBoot.STARTED), "reloaded once more");
            assertEquals(200, Scrape.get("/prometheus").statusCode(), "running when the script ends");
            assertEquals("OK", deploymentStatus());
            FIGURES.info("ssb-jca-monitoring.cli on a server slowed by " + SlowBoot.MILLIS + " ms: without --timeout "
                    + firstMillis + " ms, exit 0 (" + first.output().strip().lines().reduce((a, b) -> b).orElse("")
                    + "); again: exit 0, no reload; with a reload due and " + README_TIMEOUT + ": " + thirdMillis
                    + " ms, exit 0, running at its end");
        } finally {
            controller.stop(ManualServer.QUALIFIER);
        }
    }

    /**
     * @return jboss-cli's run of the shipped script, as docs/operations/monitoring.md gives it, with more options first
     */
    private static Cli script(String... options) {
        String[] arguments = new String[options.length + 1];
        System.arraycopy(options, 0, arguments, 0, options.length);
        arguments[options.length] = "-Dssb.monitoring.war="
                + Path.of(System.getProperty("ssb.it.monitoringWar")).toAbsolutePath();
        return ServerAdmin.cli(System.getProperty("ssb.it.monitoringCli"), arguments);
    }

    private static String deploymentStatus() {
        return ServerAdmin.manual(Operations.createReadAttributeOperation(
                new ModelNode().add("deployment", "ssb-jca-monitoring.war"), "status")).asString();
    }
}
