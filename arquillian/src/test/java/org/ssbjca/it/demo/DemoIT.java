package org.ssbjca.it.demo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import javax.management.JMException;
import javax.management.ObjectName;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.RemoteJmx;

/**
 * The README's demo ({@code mvn -B -q -Pdemo verify}): WildFly with ssb-jca.rar exactly as built (the embedded H2
 * default) and the sample; the priority scenario (seed 000) and the staged scheduler (seed 002) run in the server
 * and their reports are printed here. With {@code -Ddemo.stay=true} the server stays up until Ctrl+C, for JConsole.
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

    private static void print(String text) {
        System.out.println();
        System.out.println(text);
        System.out.flush();
    }
}
