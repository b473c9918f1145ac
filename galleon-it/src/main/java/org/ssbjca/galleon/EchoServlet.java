package org.ssbjca.galleon;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import org.ssbjca.api.Conversation;
import org.ssbjca.sample.echo.EchoClient;

/**
 * The sample's echo dialog over HTTP, for GalleonIT: {@code GET /echo} answers "ready" (the deployment is up);
 * {@code GET /echo?text=...} sends one EchoRequest through {@code java:/ssb/ConnectionFactory} (committed when
 * {@link EchoClient#send} returns) and answers with the reply of the MDB EchoService, or an empty body if none came
 * within 60 seconds. Each request runs on the calling HTTP thread.
 */
@WebServlet("/echo")
public class EchoServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @EJB
    private EchoClient client;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain;charset=UTF-8");
        String text = request.getParameter("text");
        if (text == null) {
            response.getWriter().print("ready");
            return;
        }
        Conversation dialog = client.send(text);
        String reply = client.awaitReply(dialog, Duration.ofSeconds(60));
        response.getWriter().print(reply == null ? "" : reply);
    }
}
