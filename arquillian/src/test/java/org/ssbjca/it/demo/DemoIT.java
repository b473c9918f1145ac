package org.ssbjca.it.demo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.UUID;
import javax.management.JMException;
import javax.management.ObjectName;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.ServerAdmin;
import org.ssbjca.it.support.RemoteJmx;

/**
 * The README's quick start demo ({@code mvn -B -q -Pdemo verify}): WildFly with ssb-jca.rar exactly as built (the
 * embedded H2 default) and the sample; the priority scenario (seed 000) and the staged scheduler (seed 002) run in the
 * server and their reports are printed here; the operator console is deployed beside them. With {@code
 * -Ddemo.stay=true} the server stays up until Ctrl+C, for JConsole and the console, whose address and a login (a user
 * added with
 * {@code add-user.sh -a}, role ssb-operator) it prints.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class DemoIT {

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        return Deployments.rar();
    }

    @Deployment(name = "sample", order = 2, testable = false)
    static JavaArchive sample() {
        return Deployments.ejbSample();
    }

    @Deployment(name = "console", order = 3, testable = false)
    static WebArchive console() {
        return ShrinkWrap.create(ZipImporter.class, "ssb-jca-console.war")
                .importFrom(Path.of(System.getProperty("ssb.it.consoleWar")).toFile()).as(WebArchive.class);
    }

    @Test
    void runTheScenarios() throws IOException, JMException, InterruptedException {
        try (RemoteJmx jmx = RemoteJmx.connect()) {
            ObjectName demo = new ObjectName("org.ssbjca.sample:type=Demo");
            String priority = (String) jmx.server().invoke(demo, "runPriority", new Object[] {100, 50},
                    new String[] {"int", "int"});
            print(priority);
            assertTrue(priority.contains("Processing order: 0 90 80 70 60 50 40 30 20 10 1 2 3 4 5 6 7 8 9 11 "),
                    priority);
            String stages = (String) jmx.server().invoke(demo, "runStagedScheduler", new Object[] {10},
                    new String[] {"int"});
            print(stages);
            assertTrue(stages.contains("All tasks done"), stages);
        }
        if (Boolean.getBoolean("demo.stay")) {
            String password = "demo-" + UUID.randomUUID().toString().substring(0, 8);
            addOperator("demo", password);
            print("The operator console: http://127.0.0.1:" + (8080 + Integer.getInteger("ssb.it.portOffset", 0))
                    + "/ssb-jca-console/  (user demo, password " + password + ", role ssb-operator)");
            print("WildFly stays up with the adapter and the sample. Attach JConsole to the running server:\n"
                    + "  " + System.getProperty("jboss.home") + "/bin/jconsole.sh\n"
                    + "  (or jconsole with bin/client/jboss-cli-client.jar on its class path) and connect to\n"
                    + "  service:jmx:remote+http://127.0.0.1:" + Integer.getInteger("ssb.it.managementPort", 9990)
                    + "\n  The sample's MBeans are under org.ssbjca.sample: Demo runs the scenarios again\n"
                    + "  (runPriority, runStagedScheduler, runWorkQueue, runEcho); ExecutionLog shows what runs\n"
                    + "  where.\n"
                    + "Press Ctrl+C to stop.");
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    /** {@code add-user.sh -a} into the running server's configuration; WildFly reads the file again at the login. */
    private static void addOperator(String user, String password) throws IOException, InterruptedException {
        ServerAdmin.addApplicationUser(Path.of(System.getProperty("ssb.it.suiteBaseDir")).resolve("configuration"),
                user, password, "ssb-operator");
    }

    private static void print(String text) {
        System.out.println();
        System.out.println(text);
        System.out.flush();
    }
}
