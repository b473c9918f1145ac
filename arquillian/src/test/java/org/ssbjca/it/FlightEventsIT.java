package org.ssbjca.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ejb.EJB;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.management.ObjectName;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.api.Conversation;
import org.ssbjca.it.beans.LateEchoReaders;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.it.support.RemoteJmx;
import org.ssbjca.sample.echo.EchoClient;

/**
 * The "Flight recorder events" recipe of docs/operations/monitoring.md, run as written against the WildFly this test
 * runs in (its own process id for {@code <pid>}): {@code jcmd} starts a recording with the adapter's events on, the
 * echo sample answers requests, {@code jcmd} dumps and stops it, and {@code jfr print} shows the EchoService reader's
 * wait, its RECEIVE and the bean's call. The RAR's events load in WildFly's module system (its manifest's {@code
 * jdk.jfr}). The page's recipe for a slow start is run too: a bean deployed while a recording with the default settings
 * runs shows one {@code Connect} event per reader, one of which checked the queue.
 */
@ExtendWith(ArquillianExtension.class)
class FlightEventsIT {

    @EJB
    EchoClient client;

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        return Deployments.rar(IronJacamar.h2InMemory("flight-events-it"));
    }

    @Deployment(name = "ejb", order = 2)
    static JavaArchive ejb() {
        return Deployments.ejbSample(FlightEventsIT.class);
    }

    @Deployment(name = "late", order = 3, managed = false, testable = false)
    static JavaArchive late() {
        return Deployments.ejbJar("flight-events-late.jar", LateEchoReaders.class);
    }

    @ArquillianResource
    Deployer deployer;

    @Test
    @RunAsClient
    void aBeanDeployedDuringARecordingShowsItsReadersConnects() throws Exception {
        String pid;
        try (RemoteJmx jmx = RemoteJmx.connect()) {
            pid = jmx.server().getAttribute(new ObjectName("java.lang:type=Runtime"), "Pid").toString();
        }
        Path dir = Files.createTempDirectory("ssb-jca-jfr");
        Path file = dir.resolve("ssb-jca.jfr");
        try {
            // the page's commands with the default settings: Connect is on in them
            String started = run("jcmd", pid, "JFR.start", "name=ssb-jca-start", "settings=default");
            assertTrue(started.contains("Started recording"), started);
            List<String> connects;
            try {
                deployer.deploy("late");
                try {
                    // the readers connect on the work manager's threads, after the deployment returns
                    connects = await().atMost(Duration.ofSeconds(60)).until(() -> {
                        Files.deleteIfExists(file);
                        run("jcmd", pid, "JFR.dump", "name=ssb-jca-start", "filename=" + file);
                        return events(run("jfr", "print", "--events", "org.ssbjca.Connect", file.toString()))
                                .stream().filter(e -> e.contains("queue = \"" + LateEchoReaders.QUEUE + "\""))
                                .toList();
                    }, found -> found.size() >= LateEchoReaders.READERS);
                } finally {
                    deployer.undeploy("late");
                }
            } finally {
                run("jcmd", pid, "JFR.stop", "name=ssb-jca-start");
            }
            assertEquals(LateEchoReaders.READERS, connects.size(), "one connect per reader: " + connects);
            assertTrue(connects.stream().allMatch(e -> e.contains("reconnect = false")), "first connects: " + connects);
            assertEquals(1, connects.stream().filter(e -> e.contains("checked = true")).count(),
                    "one reader checked the queue for the three: " + connects);
            assertEquals(LateEchoReaders.READERS, connects.stream().map(FlightEventsIT::reader).distinct().count(),
                    "three readers: " + connects);
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

    /** @return the {@code reader} field of a printed event */
    private static String reader(String event) {
        return event.lines().filter(l -> l.trim().startsWith("reader = ")).findFirst().orElse("");
    }

    @Test
    @OperateOnDeployment("ejb")
    void theRecipeRecordsTheWaitTheReceiveAndTheBeanCall() throws Exception {
        String pid = Long.toString(ProcessHandle.current().pid());
        Path dir = Files.createTempDirectory("ssb-jca-jfr");
        Path file = dir.resolve("ssb-jca.jfr");
        try {
            // the page's commands, word for word but for <pid> and the file's directory
            String started = run("jcmd", pid, "JFR.start", "name=ssb-jca", "settings=default",
                    "+org.ssbjca.Receive#threshold=0ms", "+org.ssbjca.Delivery#threshold=0ms",
                    "+org.ssbjca.Wait#enabled=true");
            assertTrue(started.contains("Started recording"), started);
            try {
                // A reader's wait that began before the recording is not one of its events, and a commit wakes the
                // reader that has waited longest: with the sample's 2 readers, the third request at the latest wakes
                // a reader that began its wait after the recording started.
                for (int i = 1; i <= 4; i++) {
                    Conversation dialog = client.send("recorded " + i);
                    assertEquals("echo: recorded " + i, client.awaitReply(dialog, Duration.ofSeconds(30)));
                }
                run("jcmd", pid, "JFR.dump", "name=ssb-jca", "filename=" + file);
            } finally {
                run("jcmd", pid, "JFR.stop", "name=ssb-jca");
            }
            String printed = run("jfr", "print", "--events", "org.ssbjca.Receive,org.ssbjca.Wait,org.ssbjca.Delivery",
                    file.toString());
            List<String> events = events(printed);
            assertTrue(events.stream().anyMatch(e -> e.startsWith("org.ssbjca.Delivery")
                    && e.contains("queue = \"EchoServiceQueue\"") && e.contains("messages = 1")
                    && e.contains("succeeded = true")), "the bean's call: " + printed);
            assertTrue(events.stream().anyMatch(e -> e.startsWith("org.ssbjca.Receive")
                    && e.contains("queue = \"EchoServiceQueue\"") && e.contains("messages = 1")),
                    "the RECEIVE that took the request: " + printed);
            assertTrue(events.stream().anyMatch(e -> e.startsWith("org.ssbjca.Wait")
                    && e.contains("queue = \"EchoServiceQueue\"") && e.contains("signalled = true")),
                    "a reader's wait that the send's commit ended: " + printed);
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

    /** @return each event of {@code jfr print}'s output, from its name to its closing brace */
    private static List<String> events(String printed) {
        List<String> events = new ArrayList<>();
        StringBuilder current = null;
        for (String line : printed.split("\n")) {
            if (line.startsWith("org.ssbjca.")) {
                current = new StringBuilder();
            }
            if (current != null) {
                current.append(line).append('\n');
                if (line.equals("}")) {
                    events.add(current.toString());
                    current = null;
                }
            }
        }
        return events;
    }

    /** Runs a tool of the JDK WildFly runs on; @return its output */
    private static String run(String tool, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", tool).toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), String.join(" ", command) + ": " + out);
        return out;
    }
}
