/**
 * The landing page's one action: "Try a checkout" asks the node for a demo order
 * (POST /dev/demo-order, development nodes only) and opens the checkout link it answers.
 */
interface DemoOrderAnswer {
  message: string;
  responseObject: { checkoutPath: string } | null;
}

const button = document.getElementById('try-checkout') as HTMLButtonElement;
const status = document.getElementById('status') as HTMLParagraphElement;

button.addEventListener('click', () => void tryCheckout());

async function tryCheckout(): Promise<void> {
  button.disabled = true;
  status.classList.remove('error');
  status.textContent = 'Making a demo order…';
  try {
    const response = await fetch('/dev/demo-order', { method: 'POST' });
    const answer = (await response.json()) as DemoOrderAnswer;
    if (!response.ok || !answer.responseObject) throw new Error(answer.message);
    status.textContent = 'Opening its checkout…';
    location.assign(answer.responseObject.checkoutPath);
  } catch (error) {
    status.classList.add('error');
    status.textContent = `No demo order could be made: ${error instanceof Error ? error.message : String(error)}`;
    button.disabled = false;
  }
}
