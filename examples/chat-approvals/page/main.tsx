/**
 * The chat page as the AI SDK docs build one: `useChat` posts to `/api/chat`; a tool part waiting
 * for approval shows Approve and Reject, and the approval predicate sends the answer by itself.
 */
import { useChat } from '@ai-sdk/react';
import { lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from 'ai';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

/** The chat id comes from the address (`?chat=...`), so two tabs can open the same chat. */
const chatId = new URLSearchParams(location.search).get('chat') ?? 'chat';
/** The chat's messages are kept in the browser, so a reloaded or second tab shows the chat too. */
const saved = `chat:${chatId}`;
const initial = JSON.parse(localStorage.getItem(saved) ?? '[]') as UIMessage[];

/** The actions of the `data-continuation` part a suspended run's message ends with, to show what each approval runs. */
function actionsOf(message: UIMessage): Array<{ id: string; toolName: string; args?: unknown }> {
  const part = [...message.parts].reverse().find((each) => each.type === 'data-continuation') as
    | { data: { actions: Array<{ id: string; toolName: string; args?: unknown }> } }
    | undefined;
  return part?.data.actions ?? [];
}

function Chat() {
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    id: chatId,
    messages: initial,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState('');
  useEffect(() => {
    if (status === 'ready') localStorage.setItem(saved, JSON.stringify(messages));
  }, [messages, status]);
  return (
    <main>
      <ul>
        {messages.map((message) => (
          <li key={message.id} data-role={message.role}>
            {message.parts.map((part, index) => {
              const key = `${message.id}-${index}`;
              if (part.type === 'text') return <p key={key}>{part.text}</p>;
              if (!part.type.startsWith('tool-') || !('state' in part)) return null;
              if (part.state !== 'approval-requested' || !part.approval) return null;
              const id = part.approval.id;
              // A sub-agent's call is named by the run's actions; the outer part holds the outer call.
              const action = actionsOf(message).find((each) => each.id === id);
              const asked = action
                ? `${action.toolName} ${JSON.stringify(action.args)}`
                : JSON.stringify(part.input);
              return (
                <div key={key} data-approval={id}>
                  <span>Approval needed: {asked}</span>
                  <button type="button" onClick={() => addToolApprovalResponse({ id, approved: true })}>
                    Approve
                  </button>
                  <button
                    type="button"
                    onClick={() => addToolApprovalResponse({ id, approved: false, reason: 'Not now' })}
                  >
                    Reject
                  </button>
                </div>
              );
            })}
          </li>
        ))}
      </ul>
      {error ? <p role="alert">{error.message}</p> : null}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          sendMessage({ text: input });
          setInput('');
        }}
      >
        <input value={input} onChange={(event) => setInput(event.target.value)} placeholder="Ask" />
        <button type="submit" disabled={status !== 'ready'}>
          Send
        </button>
      </form>
      <output data-status={status} />
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Chat />);
