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
 * default) and the sample; the scenarios run in the server and their reports are printed here. With
 * {@code -Ddemo.stay=true} the server stays up until Ctrl+C, for JConsole.
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
            String echo = (String) jmx.server().invoke(demo, "runEcho", new Object[] {5},
                    new String[] {"int"});
            print(echo);
            assertTrue(echo.contains("received 'echo: request 5'"), echo);
        }
        if (Boolean.getBoolean("demo.stay")) {
            print("WildFly stays up with the adapter and the sample. Attach JConsole to the running server:\n"
                    + "  " + System.getProperty("jboss.home") + "/bin/jconsole.sh\n"
                    + "  (or jconsole with bin/client/jboss-cli-client.jar on its class path) and connect to\n"
                    + "  service:jmx:remote+http://127.0.0.1:" + Integer.getInteger("ssb.it.managementPort", 9990)
                    + " ; the adapter's MBeans are under org.ssbjca.\n"
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
