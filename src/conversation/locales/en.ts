/**
 * The English catalogue: message key → template with `{param}` placeholders. English is the
 * reference language: every key exists here, other locales may translate a subset.
 * Each part adds its keys in its own section below; keep sections, do not reorder them.
 *
 * A word that depends on a number is never written "traveller(s)": the template holds each form,
 * `{travellers, plural, one {# traveller} other {# travellers}}`, and rendering picks the one
 * `Intl.PluralRules` names for the count in the user's language (`#` is the count). A
 * translation lists the forms its language has (`few`, `many`…).
 *
 * A date is never written here or in a flow: the template says `{startDate, date}`, the flow
 * passes the ISO date (`2026-11-18`) and rendering writes it as the user reads it, `18/11/2026`
 * (day/month/year, as users also type dates); `{endDate, date, short}` writes `18/11` where a
 * label must stay short. Dates sent to the insurer stay ISO.
 */
export const en = {
  // engine
  'engine.stillWorking': 'We are still working on your request. Reply to see the result.',
  'engine.busy': 'We are still working on your last request. Please try again in a moment.',
  'engine.interrupted': 'Your last step may not have gone through. Please answer again.',
  'engine.restarted': 'Sorry, we had to start again from the beginning.',
  'engine.error': 'Sorry, something went wrong on our side. Please try again later.',
  'engine.sessionEnded': 'This conversation has ended.',
  'engine.goodbye': 'Thank you for using our service.',
  'engine.checkAgain': 'Check again',

  // validation
  'validation.nrc.format': 'Enter the NRC as 123456/78/9 or as 9 digits.',
  'validation.nrc.nationality': 'The last digit of the NRC must be 1, 2 or 3.',
  'validation.phone.format': 'Enter a Zambian mobile number such as 0971234567.',
  'validation.phone.notMobile': 'That is not a mobile number.',
  'validation.phone.notZambian': 'Enter a Zambian mobile number (+260).',
  'validation.plate.format': 'Enter the number plate, such as AJQ 1909.',
  'validation.date.format': 'Enter the date as DD/MM/YYYY, such as 05/03/2027.',
  'validation.date.invalid': 'That date does not exist.',
  'validation.date.notPast': 'The date must be in the past.',
  'validation.date.notFuture': 'The date must be in the future.',
  'validation.date.notTodayOrFuture': 'The date must be today or later.',
  'validation.date.notTodayOrPast': 'The date must be today or earlier.',
  'validation.date.tooEarly': 'The date must be on or after {min, date}.',
  'validation.date.tooLate': 'The date must be on or before {max, date}.',
  'validation.amount.format': 'Enter an amount such as 1500 or 1500.50.',
  'validation.amount.notPositive': 'The amount must be more than zero.',
  'validation.amount.tooManyDecimals': 'Use at most two decimal places.',
  'validation.amount.tooLarge': 'The amount must be at most {max}.',
  'validation.tooManyTries': 'Too many tries. Please start again when you are ready.',

  // flows: shared (flows/support.ts)
  'flow.choice.retry': 'Try again',
  'flow.choice.back': 'Back',
  'flow.choice.changeAnswer': 'Change my answer',
  'flow.choice.end': 'End',
  'flow.choice.more': 'More',
  'flow.choice.yes': 'Yes',
  'flow.choice.no': 'No',
  'flow.failed.timeout': 'The insurer is taking too long to answer.',
  'flow.failed.unavailable': 'The insurer cannot be reached right now.',
  'flow.failed.rejected': 'The insurer could not accept these details.',
  'flow.failed.notFound': 'We could not find that record.',
  'flow.failed.denied': 'This service is not available to you right now.',
  'flow.failed.limited': 'You have asked too often.',
  'flow.failed.unknown': 'Sorry, something went wrong.',
  'flow.failed.said': '{said}',
  'flow.failed.check': 'Please check your answers.',
  'flow.field.registrationNumber': 'Please check the number plate.',
  'flow.field.vehicleId': 'Please check the number plate of the vehicle.',
  'flow.field.nrcNumber': 'Please check the NRC number.',
  'flow.field.clientId': 'Please check the policyholder details.',
  'flow.field.firstName': 'Please check the first name.',
  'flow.field.lastName': 'Please check the last name.',
  'flow.field.chassisNumber': 'Please check the chassis number.',
  'flow.field.engineNumber': 'Please check the engine number.',
  'flow.field.sumInsured': 'Please check the vehicle value.',
  'flow.field.startDate': 'Please check the start date.',
  'flow.field.lossDate': 'Please check the date of the loss.',
  'flow.field.email': 'Please check the email address.',
  'flow.field.phoneNumber': 'Please check the phone number.',
  'flow.field.idNumber': 'Please check the NRC number.',
  'flow.field.mobileMoneyAccountNumber': 'Please check the mobile money number.',
  'flow.field.destination': 'Please check the destination.',
  'flow.field.endDate': 'Please check the number of days of the trip.',
  'flow.field.name': 'Please check the name.',
  'flow.field.description': 'Please check the description of what happened.',
  'flow.field.partnerLoanReference': 'Please check the loan reference.',
  'flow.field.claimType': 'Please check what happened.',
  'flow.field.make': 'Please check the vehicle make.',
  'flow.field.model': 'Please check the vehicle model.',
  // Never shown: the marker of Back on a first screen, which hands over to the main menu.
  'flow.end.mainMenu': 'Main menu',
  'flow.end.cancelled': 'Cancelled. Nothing more was done. Goodbye.',
  'flow.end.thanks': 'Thank you. Goodbye.',
  'flow.note.pickFromList': 'Please pick one.',
  'flow.note.typeAnswer': 'Please type your answer.',
  'flow.note.stuck':
    'Or go Back (0) to change an earlier answer or reach the menu. Your answers are kept.',
  'flow.note.badName': 'Enter a name in letters, at most {max}.',
  'flow.note.fullName': 'Type a first and a last name, e.g. Jane Banda.',
  'flow.note.badText': 'Enter a short answer (up to {max} characters).',
  'flow.note.badDescription': 'Describe what happened in words (up to {max} characters).',
  'flow.note.badIdentifier': 'Use up to {max} letters and digits.',
  'flow.note.badMake': 'Enter the make in letters, such as Toyota.',
  'flow.note.badChassis': 'Enter the chassis number: {min} to {max} letters and digits.',
  'flow.note.badCountry': 'Enter a country, such as South Africa.',
  'flow.note.badEmail': 'Enter an email address such as name@mail.com.',
  'flow.note.badYear': 'Enter the year of manufacture, such as 2018.',
  'flow.note.vehicleName': 'Type the make, model and year, e.g. Toyota Corolla 2015.',

  // flows: payments (motor-quote, travel-issue)
  'pay.choice.ownNumber': 'My number',
  'pay.choice.otherNumber': 'Another number',
  'pay.choice.card': 'Card',
  'pay.choice.check': 'Check status',
  'pay.choice.tryAgain': 'Pay again',
  'pay.askPhone': 'Mobile money number to pay {currency} {amount} from:',
  'pay.waitPhone': 'Approve {currency} {amount} on your phone. We will tell you when it is paid.',
  'pay.waitConfirming':
    'Your payment of {currency} {amount} is being confirmed with the insurer. We will tell you the result.',
  'pay.waitCard': 'Pay {currency} {amount} by card with the link we sent.',
  // A handset's call ends here: the network's PIN prompt cannot show while it holds the screen.
  'pay.released':
    'Approve {currency} {amount} for {what} when your phone asks for your PIN. We will SMS the result.',
  'pay.waitHandset':
    'Your payment of {currency} {amount} for {what} is waiting for your PIN on your phone. We will SMS the result.',
  'pay.cardLink': 'Card payment page',
  'pay.note.stillPending':
    'Still waiting since {since}. We will tell you as soon as the insurer confirms it.',
  'pay.failed':
    'Payment of {currency} {amount} for {what} did not go through. Nothing was charged.',
  'pay.note.itemPending':
    'A payment for {item} is still being confirmed. We will tell you the result.',
  'pay.note.reason': 'Reason: {reason}.',
  'pay.sms.cardLink': 'Pay {currency} {amount} by card: {url}',

  // main-menu
  'menu.policyholder': 'Welcome. What would you like to do?',
  'menu.funeral-member': 'Welcome. What would you like to do?',
  'menu.staff': 'Staff desk.',
  'menu.choice.motor': 'Motor insurance',
  'menu.choice.travel': 'Travel insurance',
  'menu.choice.policies': 'My cover',
  'menu.choice.claim': 'Claims',
  'menu.choice.household': 'Check household cover',
  'menu.choice.desk': 'Open the desk',
  'menu.choice.person': 'Talk to a person',
  'menu.choice.renew': 'Renew {policyNumber}',
  'menu.choice.renewList': 'Renew my cover ({count} due)',
  // The same entries on USSD, shorter, so the menu keeps to one page (flows/main-menu.ts).
  'menu.ussd.motor': 'Motor insurance',
  'menu.ussd.travel': 'Travel insurance',
  'menu.ussd.renewList': 'Renew my cover ({count} due)',
  'menu.renewals': 'Which cover do you want to renew?',
  'menu.choice.renewal': '{policyNumber} (ends {endDate, date, short})',
  'menu.choice.remindersOff': 'Stop reminders',
  'menu.remindersOff':
    'Renewal reminders are off. You can still renew from this menu, and turn them back on there.',
  'menu.choice.remindersOn': 'Turn reminders on',
  'menu.remindersOn': 'Renewal reminders are on again. We will remind you before your cover ends.',
  'menu.note.remindersNotChanged': 'Sorry, we could not change your reminders. Try again later.',

  // motor-quote
  'motor.mode': 'Motor insurance:',
  'motor.choice.new': 'New cover',
  'motor.choice.renew': 'Renew my policy',
  'motor.choice.otherPlate': 'Another plate',
  'motor.pickProduct': 'Choose cover:',
  'motor.noProducts': 'No motor cover is on offer right now.',
  'motor.askPlate': 'Vehicle number plate:',
  'motor.confirmVehicle': 'Is {plate} your {vehicle}?',
  'motor.askVehicle': 'Make, model and year (e.g. Toyota Corolla 2015):',
  'motor.pickCategory': 'Vehicle use:',
  'motor.askChassis': 'Chassis number:',
  'motor.askEngine': 'Engine number:',
  'motor.askSumInsured': 'Vehicle value in ZMW (sum insured):',
  'motor.pickDuration': 'Choose a period:',
  'motor.noPricing': 'No price is available for this vehicle.',
  'motor.durationOption': '{label} {currency} {gross}',
  'motor.askHolderPhone': 'Policyholder mobile number:',
  'motor.confirmHolder': 'Policyholder: {name}. Correct?',
  'motor.askHolderNrc': 'Policyholder NRC number:',
  'motor.askName': 'Policyholder full name (e.g. Jane Banda):',
  'motor.askEmail': 'Policyholder email:',
  'motor.confirmQuote':
    '{product} {plate}, {startDate, date}-{endDate, date}: {currency} {amount} (premium {basic} + levy {levy}). Pay with:',
  'motor.confirmQuote.undated':
    '{product} {plate}, {label}: {currency} {amount} (premium {basic} + levy {levy}). Pay with:',
  'motor.askRenewPlate': 'Plate of the vehicle to renew:',
  'motor.noPolicy': 'No motor policy found for {plate}.',
  'motor.heldElsewhere.new':
    '{plate} is registered to another holder. Only the phone on record for it can insure it here.',
  'motor.heldElsewhere.renew':
    '{plate} is insured under another holder. Only the phone on record for the policy can renew it.',
  'motor.heldElsewhere.new.contact':
    '{plate} is registered to a holder. If it is yours, share your phone number; else:',
  'motor.heldElsewhere.renew.contact':
    '{plate} is insured under a holder. If it is yours, share your phone number; else:',
  'motor.choice.tellHolder': 'SMS the holder',
  'motor.note.holderTold': 'We sent the holder an SMS.',
  'motor.sms.asked.new':
    'Someone asked to insure {plate} through insurechat. If it was you, dial us from this phone.',
  'motor.sms.asked.renew':
    'Someone asked to renew the cover of {plate} through insurechat. If it was you, dial us from this phone.',
  'motor.confirmRenewal':
    'Renew {policyNumber} {startDate, date} to {endDate, date}: {currency} {amount}. Pay with:',
  'motor.done':
    'Paid {currency} {amount}. {what}, {startDate, date} to {endDate, date}. Your policy number is {policyNumber}.',
  'motor.renewed':
    'Paid {currency} {amount}. Policy {policyNumber} is renewed, {startDate, date} to {endDate, date}.',
  'motor.certificate': 'Insurance certificate',
  // one-time code that proves a typed NRC (issue 35), and the pay step
  'motor.offerCode': 'This NRC is on record with another phone.',
  'motor.choice.sendCode': 'Send a code to the phone on record ({phone})',
  'motor.choice.newHolder': 'Go on as a new holder for this policy only',
  'motor.askCode': 'Code sent to {phone}:',
  'motor.note.codeSent':
    'We sent a code by SMS. Dial again and enter it if you cannot read it now.',
  'motor.note.codeWrong': 'That code is wrong. Tries left: {left}.',
  'motor.note.codeFormat': 'The code is 6 digits.',
  'motor.code.spent': 'The code was wrong 3 times. No new code for this NRC for a while.',
  'motor.code.expired': 'The code has expired or was used already.',
  'motor.code.unsent': 'No code can be sent for this NRC now. Try again later.',
  'motor.choice.newCode': 'Send a new code',
  'motor.sms.code':
    'Your insurechat code: {code}. It lets a phone use your NRC for motor cover, for 10 minutes. Share it with no one; if you did not ask, ignore this.',
  'motor.confirmRepriced': 'The price is now {currency} {amount}. Pay with:',
  'motor.alreadyInsured': '{plate} is already insured until {until, date}.',
  'motor.paymentUnsettled':
    'A payment of yours for {plate} is still being confirmed. We will tell you the result.',
  'motor.plateBlocked':
    'The insurer holds {plate} under another client without cover, so it cannot be registered here. A person can sort it out.',

  // renewal reminders
  'reminder.notice':
    'We will remind you before it ends. To stop, choose Stop reminders in the menu.',
  'reminder.motor':
    'Motor cover {policyNumber} ({what}) ends on {endDate, date}. Renew now to stay insured.',
  'reminder.motorSms':
    'Motor cover {policyNumber} ({what}) ends on {endDate, date}. To renew, dial {serviceCode} and choose Renew {policyNumber}. Reply STOP to stop reminders.',
  'reminder.choice.renew': 'Renew now',
  'reminder.smsNotice':
    'We will remind you by SMS before {policyNumber} ends, so you can renew in time. Reply STOP to opt out.',
  'reminder.stopped': 'Renewal reminders are off. Reply START to turn them back on.',
  'reminder.started': 'Renewal reminders are on. Reply STOP to stop them.',
  // credit-life premium reminders, to the lender's staff in Slack
  'reminder.creditLifeDue':
    '*Credit-life premium due* {policyNumber} ({product}): the next period is due on {dueDate, date}, {currency} {amount}. Look it up on the desk: `/insure policy {policyNumber}`.',
  'reminder.creditLifeOwed':
    '*Credit-life premium owed now* {policyNumber} ({product}): {periods, plural, one {# period} other {# periods}} unpaid, {currency} {amount}; cover stays on only until grace ends on {graceEndsAt, date}. Look it up on the desk: `/insure policy {policyNumber}`.',
  // The staff's morning digest: built as Slack mrkdwn from the insurer's records.
  'digest.morning': '{text}',

  // travel-issue
  'travel.loading': 'Loading travel cover...',
  'travel.noPackages': 'No travel cover is on offer right now. Please try later.',
  'travel.pickPackage':
    'Cover for {travellers, plural, one {# traveller} other {# travellers}}. Choose:',
  'travel.askDestination': 'Destination country:',
  'travel.askStartDate': 'Travel start date (DD/MM/YYYY):',
  'travel.askName': 'Your full name:',
  'travel.askNrc': 'Your NRC number:',
  'travel.travellers': 'Travellers so far: {count}.',
  'travel.choice.addTraveller': 'Add a traveller',
  'travel.choice.continue': 'Continue',
  'travel.askTravellerName': "Traveller's full name:",
  'travel.askRelationship': 'Relationship to you:',
  'travel.relationship.spouse': 'Spouse',
  'travel.relationship.child': 'Child',
  'travel.relationship.parent': 'Parent',
  'travel.relationship.other': 'Other',
  'travel.askDays': 'How many days is the trip?',
  'travel.note.badDays': 'Enter the number of days, from 1 to {max}.',
  'travel.confirmQuote':
    '{what}, {startDate, date} to {endDate, date}, {travellers, plural, one {# traveller} other {# travellers}}: {currency} {amount}. Pay with:',
  'travel.done':
    'Paid {currency} {amount}. {what}, {startDate, date} to {endDate, date}. Policy {policyNumber}.',
  'travel.certificate': 'Travel certificate',

  // claim-intimation
  'claim.start': 'Claims:',
  'claim.choice.creditLife': 'Loan (credit life)',
  'claim.choice.groupLife': 'Death of a member (group life)',
  'claim.choice.track': 'Track my claims',
  'claim.choice.submit': 'Submit claim',
  'claim.choice.attach': 'Add documents',
  'claim.choice.later': 'Later',
  'claim.choice.more': 'Add another',
  'claim.askPolicy': 'Policy number (e.g. CL-DEMO-000001):',
  'claim.askPolicy.group-life': 'Scheme policy number (e.g. GL-DEMO-000001):',
  'claim.pickType': 'What happened to the borrower?',
  'claim.pickType.none': 'The insurer lists no cover to claim under on this policy.',
  'claim.note.late':
    'Loss {days} days ago: claims are due within {allowed} days and may be refused.',
  'claim.ask.partnerLoanReference': 'Your loan reference:',
  'claim.ask.nrcNumber': "Member's NRC number:",
  'claim.askDate.credit-life': 'Date of the loss (DD/MM/YYYY):',
  'claim.askDate.group-life': 'Date of death (DD/MM/YYYY):',
  'claim.askDetails': 'What happened?',
  'claim.confirm.credit-life': '{claimType} claim on loan {subject}, loss on {eventDate, date}.',
  'claim.confirm.group-life': 'Death claim for {subject} on {eventDate, date}.',
  'claim.intimated': 'Claim {number}: {status}. Documents needed: {documents}.',
  'claim.intimated.payable':
    'Claim {number}: {status}. If the claim is accepted, the cover pays {currency} {payable}. Documents needed: {documents}.',
  'claim.linkSent':
    'We sent you an SMS with a link for claim {number}: open it to send photos or files.',
  'claim.sms.upload': 'Send the documents for claim {number} (photos or files) here:',
  'claim.uploadPage': 'Add documents',
  'claim.notice.link':
    'Claim {number} ({claimType}, {subject}) is received. The insurer checks it and contacts you. Documents needed: {documents}. Send photos or files here:',
  'claim.notice.chat':
    'Claim {number} ({claimType}, {subject}) is received. The insurer checks it and contacts you. Documents needed: {documents}. Send photos or files in this chat: Claims, Track my claims, then {number}.',
  'documents.page.title': 'Claim documents',
  'documents.page.claim': 'Claim {number}:',
  'documents.page.held': 'Documents the insurer has: {count}.',
  'documents.page.choose': 'Take a photo or choose files (photos or PDF, up to {mb} MB each)',
  'documents.page.sending': 'sending…',
  'documents.page.sent': 'sent',
  'documents.page.kept': 'kept; staff check the claim with the family, then send it to the insurer',
  'documents.page.failed': 'not sent; check your connection and try again',
  'documents.page.needed': 'Documents the insurer asks for: {documents}.',
  'documents.page.linkMalformed': 'This link is not complete.',
  'documents.page.linkForged': 'This link is not valid.',
  'documents.page.linkExpired': 'This link has expired.',
  'documents.page.unavailable': 'The insurer cannot be reached just now. Try again later.',
  'documents.page.unreadable': 'The file could not be read. Please try again.',
  'documents.page.notSent': 'The file could not be sent. Please try again.',
  'documents.page.notTaken': 'The insurer did not take the file just now. Please try again.',
  // files: why a claim document was refused, the same words on every channel (docs/cover-and-claims.md)
  'files.refused.type': 'Only photos (JPEG, PNG, WebP, HEIC) and PDF files can be sent.',
  'files.refused.tooLarge': 'That file is too large: each file may be at most {mb} MB.',
  'files.refused.claimFull':
    'This claim cannot take that file: a claim takes at most {files} files and {mb} MB in all.',
  'claim.staff.intimated': 'New {line} claim {number} ({claimType}): {status}.',
  'claim.askDocument': 'Send a photo or file for claim {number} ({count} sent).',
  'claim.documented': 'Claim {number}: {status}. Documents: {count}.',
  'claim.trackLine': 'Which claims?',
  'claim.choice.held': 'Claim on my cover',
  'claim.choice.other': 'Another policy',
  'claim.choice.byNumber': 'By claim number',
  'claim.choice.anotherNumber': 'Another claim number',
  'claim.choice.again': 'Try another number',
  'claim.held': 'Which loan or membership is the claim for?',
  'claim.held.none': 'No loan or membership in force was found for your phone number.',
  'claim.held.credit-life': 'Loan {number} ({covers})',
  'claim.held.group-life': 'Group life {number} ({covers})',
  'claim.askNumber': 'Enter the claim number you were given (e.g. CLC-000001):',
  'claim.notFound': 'No claim {number} was found.',
  'claim.list': 'Your claims ({count}):',
  'claim.list.empty': 'You have no claims.',
  'claim.line': '{number} {status}',
  'claim.detail':
    'Claim {number}: {status}. If the claim is accepted, the cover pays {currency} {payable}.',
  'claim.detail.noPayable': 'Claim {number}: {status}.',
  'claim.detail.status':
    'Claim {number}: {status}. Its details go only to the phone on record for the member or loan.',
  'claim.start.contact': 'Claims. Share your phone number to see your own claims and cover.',
  'claim.note.alreadyOpen': 'A claim for this is already open: {number}. Follow that claim.',
  'claim.alreadyOpen': 'A claim for this is already open: {number}.',
  'claim.choice.trackOpen': 'Track that claim',
  'claim.choice.anotherSubject': 'Another loan or member',
  'claim.note.alreadyOpenElsewhere':
    'A claim for this is already open. The family member who reported it has its number.',
  'claim.note.noDocuments':
    'The insurer is handling this claim: it takes no more documents here. Call the insurer.',
  'claim.note.notYours': 'Only the phone on record for this claim can do that.',
  'claim.note.unknown': 'We cannot check your claims right now - try again in a few minutes.',
  'claim.note.openUnknown':
    'We cannot check for a claim already made for this right now - try again in a few minutes.',
  'claim.needPhone':
    'To report a claim, share your phone number first: the insurer calls you back on it, and the member is told who reported it.',
  'claim.note.needPhone': 'Share your phone number first to report a claim.',
  'claim.sms.reported':
    'Claim {number} was reported on your cover by another phone. If you did not expect this, dial {serviceCode} and choose Talk to a person, quoting {number}.',
  'claim.progress': 'Update on claim {number}: the insurer now shows it as {insurerStatus}.',
  'claim.progress.documented': 'Claim {number}: the insurer has its documents and will check it.',
  'claim.sms.reported.noCode':
    'Claim {number} was reported on your cover by another phone. If you did not expect this, contact the insurer and quote {number}.',
  'claim.note.held':
    'Your documents are kept. Staff check the claim with the family, then send them to the insurer.',
  'claim.end': 'Claim {number}: {status}. Goodbye.',

  // cover-status
  'cover.askContact':
    'Tap "Share my phone number" to see your cover, or type an NRC number to look one up.',
  'cover.askNrc': 'Enter the NRC number:',
  'cover.list': 'Your cover ({count}):',
  'cover.none': 'No cover was found for this NRC.',
  'cover.mine.none': 'No policies were found for your phone number.',
  'cover.line.motor': 'Motor {number} {status}',
  'cover.line.travel': 'Travel {number} {status}',
  'cover.line.life': 'Life {number} {status}',
  'cover.line.funeral': 'Funeral {number} {status}',
  'cover.line.groupLife': 'Group life {number} {status}',
  'cover.line.creditLife': 'Loan {number} {status}',
  'cover.detail.motor':
    'Motor {number}: {status}, {startDate, date} to {endDate, date}. Vehicle {covers}. Premium {currency} {amount}.',
  'cover.detail.travel':
    'Travel {number}: {status}, {startDate, date} to {endDate, date}. {covers}. Premium {currency} {amount}.',
  'cover.detail.life':
    'Life {number}: {status}, {startDate, date} to {endDate, date}. Premium {currency} {amount}.',
  'cover.detail.funeral':
    'Funeral {number}: {status}, {startDate, date} to {endDate, date}. Household of {covers}. Premium {currency} {amount}.',
  'cover.detail.group-life':
    'Group life {number}: {status}, {startDate, date} to {endDate, date}. Member {covers}. Cover {currency} {amount}.',
  'cover.detail.credit-life':
    'Loan {number}: {status}, {startDate, date} to {endDate, date}. Policy {covers}. Amount {currency} {amount}.',
  'cover.note.until': 'Covered until {until, date}.',
  'cover.note.freeCoverLimit':
    'Cover above {currency} {limit} needs underwriting: until then it is not paid.',
  'cover.note.shareContact': 'Tap "Share my phone number", or type an NRC.',
  'cover.limited.covered':
    'This NRC has cover until {until, date}. Details go only to the phone on record.',
  'cover.limited.none': 'No cover in force was found for this NRC.',
  'cover.limited.unknown': 'Cover for this NRC could not be confirmed now.',
  'cover.unknown': 'We cannot check your cover right now - try again in a few minutes.',
  'cover.certificate': 'Certificate',
  'cover.certificate.ready': 'Certificate of {number}:',
  'cover.certificate.sms': 'The certificate of {number} was sent to you by SMS.',
  'cover.sms.certificate': 'Your certificate for {number}:',
  'cover.sms.details': 'Your cover:',
  'cover.sms.holding': '{line} {number}: {status}, {startDate, date} to {endDate, date}{covers}',
  'cover.sms.holdingUntil':
    '{line} {number}: {status}, {startDate, date} to {endDate, date}{covers}',
  'cover.sms.sent': 'The details were sent by SMS to the phone on record.',
  'cover.choice.another': 'Another NRC',
  'cover.choice.byNrc': 'Look up by NRC',
  'cover.choice.list': 'Back to list',
  'cover.choice.certificate': 'Certificate',
  'cover.choice.claim': 'Make a claim',
  'cover.choice.renew': 'Renew',
  'cover.choice.sms': 'Send details by SMS',

  // staff-desk
  'staff.claim.verifyReporter':
    'Please verify claim {number} ({line}): it was reported on {channel} from {phone}, a phone not on record for the member or borrower. Phones on record told by SMS: {told}. Its documents are held until you confirm it: `/insure confirm {number}`. The full number shows on `/insure claim {number}` in a direct message with the bot. No payout was shown to the caller.',
  'staff.claim.confirmed': '*Claim {id}* · confirmed; {posted} held documents sent to the insurer',
  'staff.claim.notToVerify':
    '*Claim {id}* · nothing to confirm: it was not reported by someone else, or is confirmed already',
  'staff.field.reporter': '*Reported by*\n{channel} · {phone}',
  'staff.field.reporterOwn': '*Reported by*\n{channel} · their own phone on record',
  'staff.field.toVerify': '*To verify*\n{held} documents from the reporter held · `confirm {id}`',
  'staff.field.confirmedBy': '*Confirmed by*\n{member}',
  'staff.desk': 'Type a command (e.g. policy P-2026-000001) or pick:',
  'staff.choice.policy': 'Policy',
  'staff.choice.claim': 'Claim',
  'staff.choice.claims': 'Recent claims',
  'staff.choice.txn': 'Transaction',
  'staff.choice.household': 'Household',
  'staff.choice.batch': 'Batch',
  'staff.choice.bordereau': 'Bordereau',
  'staff.choice.today': 'Today',
  'staff.choice.sync': 'Sync holdings',
  'staff.choice.confirm': 'Confirm a claim',
  'staff.choice.another': 'Another lookup',
  'staff.choice.help': 'Commands',
  'staff.ask.policy': 'Policy number or id, plate, loan reference, NRC or phone:',
  'staff.ask.claim': 'Claim number (CLC-000001) or id:',
  'staff.ask.confirm': 'Claim number to confirm (GLC-000001):',
  'staff.ask.claims': 'Press send to list claims.',
  'staff.ask.txn': 'Payment reference:',
  'staff.ask.household': 'Principal NRC:',
  'staff.ask.batch': 'Policy number and batch or schedule number (CL-DEMO-000001 SCH-000001):',
  'staff.ask.bordereau': 'Policy id:',
  'staff.note.unknownCommand': 'Unknown command. Try: policy P-2026-000001',
  'staff.note.usage.policy': 'Usage: policy <number or id, plate, loan reference, NRC or phone>',
  'staff.note.usage.claim': 'Usage: claim <CLC-000001 or id>',
  'staff.note.usage.confirm': 'Usage: confirm <GLC-000001>',
  'staff.note.usage.claims': 'Usage: claims',
  'staff.note.usage.txn': 'Usage: txn <payment reference>',
  'staff.note.usage.household': 'Usage: household <NRC>',
  'staff.note.usage.batch': 'Usage: batch <policy number> <batch or schedule number>',
  'staff.note.usage.bordereau': 'Usage: bordereau <policyId>',
  'staff.note.usage.today': 'Usage: today',
  'staff.note.usage.sync': 'Usage: sync',
  'staff.notFound': 'Nothing found for {query}.',
  'staff.policy': '*Policy {policyNumber}* · {status}',
  'staff.claim': '*Claim {id}* · {status}',
  'staff.claim.document': 'Open',
  'staff.claims': '*Recent claims* · {count}',
  'staff.claims.row': '{id} · {line} · {status} · {amount}',
  'staff.txn': '*Payment {reference}* · {status}',
  'staff.household': '*Household policy {policyNumber}* · {status}',
  'staff.household.member': '*{relationship}*\n{name} · cover {sumAssured}',
  'staff.household.none': 'No household found for {query}.',
  'staff.help': '*Desk commands*, each a fresh lookup:',
  'staff.loan': '*Loan {reference}* · {status}',
  'staff.person': '*{name}* · {nrc} · {count} on record',
  'staff.person.holding': '*{product}*\n{policyNumber} · {status}',
  'staff.person.loan': '*Credit life*\n{policyNumber} · loan {loan} · {status}',
  'staff.field.borrower': '*Borrower*\n{holder}',
  'staff.field.nrc': '*NRC*\n{nrc}',
  'staff.batch': '*{line} batch {number}* · {status}',
  'staff.bordereau': 'Bordereau ready: {fileName}',
  'staff.bordereau.link': 'Download the bordereau (CSV)',
  'staff.sync.complete': '*Holdings index synced* · every list complete',
  'staff.sync.incomplete':
    '*Holdings index synced* · some lists could not be read: My cover says it cannot check until the next run',
  'staff.today':
    '*Today, {date, date}* · {paidPolicies, plural, one {# policy} other {# policies}} paid · {claims, plural, one {# claim} other {# claims}}',
  'staff.field.product': '*Product*\n{product}',
  'staff.field.holder': '*Policyholder*\n{holder}',
  'staff.field.plate': '*Vehicle*\n{plate}',
  'staff.field.trip': '*Trip*\n{trip}',
  'staff.field.period': '*Period*\n{startDate, date} to {endDate, date}',
  'staff.field.premium': '*Premium*\n{premium}',
  'staff.field.payment': '*Payment*\n{paymentStatus}',
  'staff.field.paymentReference': '*Payment*\n{paymentStatus} · {paymentReference}',
  'staff.field.others': '*Other policies*\n{others}',
  'staff.field.line': '*Line*\n{line}',
  'staff.field.amount': '*Amount*\n{amount}',
  'staff.field.subject': '*Loan or member*\n{subject}',
  'staff.field.lossDate': '*Date of loss*\n{lossDate, date}',
  'staff.field.documents': '*Documents*\n{documents}',
  'staff.field.policyNumber': '*Policy*\n{policyNumber}',
  'staff.field.method': '*Method*\n{method}',
  'staff.field.paidAt': '*Paid at*\n{paidAt, date}',
  'staff.field.callbacks': '*Callbacks*\n{deliveries} (last {lastDelivery})',
  'staff.field.principal': '*Principal*\n{principal}',
  'staff.field.count': '*Covered*\n{count}',
  'staff.field.gross': '*Gross premium*\n{grossPremium}',
  'staff.field.outstanding': '*Outstanding*\n{outstandingPremium}',
  'staff.field.paidTotal': '*Paid today*\n{paidTotal}',

  // payments: outcome notices pushed out of turn (src/payments PAYMENT_PROMPTS); one SMS each
  'payment.outcome.paid': 'Payment {reference} received. Your policy number is {policyNumber}.',
  'payment.outcome.paidWithoutPolicy':
    'Payment {reference} received. Your policy is being issued; come back to the chat to see its number.',
  'payment.outcome.failed':
    'Payment {reference} did not go through. Nothing was charged. Come back to the chat to try again.',
  'payment.outcome.pending':
    'Payment {reference} is still pending. Once you approve it, come back to the chat to check it again.',

  // whatsapp: the channel's own words; `whatsapp.word.*` are what a customer may type instead of
  // a button (comma-separated, any case; English ones are taken in every language)
  'whatsapp.choose': 'Choose',
  'whatsapp.word.menu': 'menu, main menu, start, /start',
  'whatsapp.word.cancel': 'cancel, stop, /cancel',
  'whatsapp.word.done': 'done, /done',
  'whatsapp.unsupported':
    'Sorry, WhatsApp could not pass that message on to me. Please type your answer or tap a button.',

  // telegram: the channel's own notices
  'telegram.shareContact': 'Share my phone number',
  'telegram.shareContactBelow':
    'Tap "Share my phone number" below to share the number of this Telegram account.',
  'telegram.notYourContact':
    'That is not your own contact. Tap "Share my phone number" to share the number of this Telegram account.',
  'telegram.help':
    'I can quote and sell motor and travel cover, take claims and check your cover.\n/start – main menu\n/cancel – stop what you are doing\n/status – check your cover\n/language – change the language\n/help – this message',
  'chat.filesUnavailable': 'Sorry, I cannot take files here. Please try again later.',
  'telegram.menuExpired': 'That menu has expired. Here is where we are:',
  'chat.unsupported': 'Sorry, I cannot use stickers, voice notes or locations.',
  'chat.unexpectedFile': 'I do not need a photo or file at this step.',
  'telegram.expect.text': 'Please type your answer.',
  'telegram.expect.nrc': 'Please type the NRC number, like 123456/10/1.',
  'telegram.expect.phone': 'Please type the phone number, or tap Share my phone number.',
  'telegram.expect.date': 'Please type the date, like 25/12/2026.',
  'telegram.expect.amount': 'Please type the amount in numbers.',
  'telegram.expect.choice': 'Please tap one of the buttons.',
  'telegram.expect.contact': 'Please tap Share my phone number, or type the number.',
  'telegram.expect.photo': 'Please send a photo or a file.',
  'telegram.expect.none': 'Send /start for the main menu.',
  'telegram.expect.start': 'Send /start to begin.',
  'telegram.command.start': 'Main menu',
  'telegram.command.help': 'What I can do',
  'telegram.command.cancel': 'Stop what you are doing',
  'telegram.command.status': 'Check your policies and cover',
  'telegram.command.human': 'Talk to a person',

  // slack: the staff desk's own notices
  'slack.lookup.title': 'Another lookup',
  'slack.lookup.submit': 'Look up',
  'slack.lookup.close': 'Close',
  // Shown in the lookup modal at once, replaced there by the answer.
  'slack.lookup.working': 'Looking up…',
  'slack.lookup.label': 'What to look up',
  'slack.lookup.hint':
    'As after /insure: claim CLC-DEMO-0001, policy GL-DEMO-000001, txn <reference>…',
  'slack.lookup.unknown':
    'Start with a desk command: policy, claim, claims, txn, household, batch, bordereau or today.',
  'slack.refused':
    'Sorry, this desk is only for insurer staff. Ask an administrator to add you if you need it.',
  'slack.usage': 'Unknown command `{command}`.',
  'slack.help':
    "*Insurance desk* — every command is a fresh lookup:\n• `/insure policy P-2026-000001` — a policy by number or id, plate (`AJQ 1909`), loan reference (`KL-DEMO-ACTIVE`), NRC or phone\n• `/insure claim CLC-000001` — a claim by its number or id\n• `/insure confirm GLC-000001` — confirm a claim reported by someone else, sending its held documents to the insurer\n• `/insure claims` — recent claims\n• `/insure txn IC0123ABCD` — a payment by reference, with its callbacks\n• `/insure household 123456/10/1` — a funeral household and its members\n• `/insure batch CL-DEMO-000001 SCH-000001` — a premium batch by policy and batch or schedule number\n• `/insure bordereau <policyId> [#channel]` — the bordereau CSV, sent to you privately unless a channel is named\n• `/insure today` — today's payments and claims\n• `/insure sync` — sync the holdings index now (a full pass)\n• `/insure help` — this list\nNames, NRCs, phone numbers and plates are masked outside direct messages.",
  'slack.home': '*Insurance desk*\nType `/insure help` in any conversation for the commands.',
  'slack.home.unavailable': "Today's summary is not available right now.",
  'slack.fileSentPrivately': 'The file was sent to you privately, in our direct messages.',
  'slack.fileSentTo': 'The file was sent to {channel}.',

  // ussd: the channel's own words around a Prompt (the channel puts the keypad digits before
  // `more` and `back`, since its key handling depends on them)
  'sms.continueHint': 'To carry on, dial {serviceCode} and choose Continue.',
  'ussd.more': 'More',
  'ussd.back': 'Back',
  'ussd.resumeTitle': 'You have an unfinished session.',
  // What is unfinished, under ussd.resumeTitle on the resume offer (flows/unfinished.ts).
  'resume.motor': 'Buying motor cover.',
  'resume.motorFor': 'Buying motor cover for {plate}.',
  'resume.travel': 'Buying travel cover.',
  'resume.travelTo': 'Buying travel cover for {destination}.',
  'resume.claim': 'Making a claim.',
  'resume.claimFor': 'Making a claim for {label}.',
  'ussd.resumeContinue': 'Continue',
  'ussd.resumeRestart': 'Start again',
  'ussd.useMyNumber': 'Use this number',
  'ussd.stillWorking':
    'We are still working on it. We will send you an SMS when it is done. Dial again to continue.',
  'ussd.sorry': 'Sorry, something went wrong on our side. Please dial again in a moment.',

  // handoff: a conversation handed to a person (src/handoff); `handoff.slack.*` is for staff
  'handoff.opened':
    'You are now talking to a person at the insurer. Write your message here and they will answer in this chat. Send /done to go back to where you were.',
  'handoff.already':
    'A person has your conversation and will answer here. Send /done to go back to where you were.',
  'handoff.unavailable': 'Sorry, no one is available to chat here right now.',
  'handoff.failed': 'Sorry, we could not reach a person just now. Please try again later.',
  'handoff.forwardFailed':
    'Sorry, your message did not reach the person. Please send it again in a moment.',
  'handoff.staffReply': 'From the insurer: {text}',
  'handoff.staffFile': 'From the insurer: a file for you.',
  'handoff.staffFileLabel': 'File from the insurer',
  'handoff.fileTooLarge': 'Sorry, that file is over 20 MB and did not reach the person.',
  'handoff.reopened':
    'A person at the insurer has your conversation again. Write here and they will answer. Send /done to go back to where you were.',
  'handoff.reopenedSms': 'A person at the insurer has your request again and will reply by SMS.',
  'handoff.resolved': 'The person has finished helping you. Here is where you were:',
  'handoff.resolvedFresh': 'The person has finished helping you. Send /start for the main menu.',
  'handoff.back': 'You are back with the assistant. Here is where you were:',
  'handoff.notOpen': 'You are not talking to a person. Here is where you are:',
  'handoff.resolvedSms': 'The person has finished helping you. Dial {serviceCode} to carry on.',
  'handoff.ussd.waiting':
    'A person has your request and will reply to you by SMS. To write to them, type your message.',
  'handoff.ussd.sent': 'Sent. The person will reply to you by SMS.',
  'handoff.ussd.notSent': 'Sorry, your message did not reach the person. Please send it again.',
  'handoff.ussd.end': 'End it and carry on',
  'handoff.consent':
    'A person at the insurer will read what you write and see the photos you send, in Slack, with NRC and phone numbers hidden; kept 7 days. Agree?',
  'handoff.choice.agree': 'Agree, talk to a person',
  'handoff.choice.decline': 'Decline',
  'handoff.declined': 'Nothing was sent to a person.',
  'handoff.slack.title': 'A customer on {channel} asks for a person',
  'handoff.slack.channel.telegram': 'Telegram',
  'handoff.slack.channel.whatsapp': 'WhatsApp',
  'handoff.slack.channel.ussd': 'USSD',
  'handoff.slack.channel.web': 'the web',
  'handoff.slack.channel.slack': 'Slack',
  'handoff.slack.customer': 'Customer',
  'handoff.slack.flow': 'Flow',
  'handoff.slack.noFlow': 'none',
  'handoff.slack.step': 'Current step (as they see it)',
  'handoff.slack.noStep': 'No conversation in progress.',
  'handoff.slack.answers': 'Answers so far',
  'handoff.slack.noAnswers': 'None yet.',
  'handoff.slack.howTo':
    'Reply in this thread to answer the customer. Press Resolve when done: they go back to the step they left.',
  'handoff.slack.resolve': 'Resolve',
  'handoff.slack.resolvedBy': 'Resolved by {user}.',
  'handoff.slack.endedByCustomer': 'The customer went back to the assistant.',
  'handoff.slack.ended': 'Handoff ended.',
  'handoff.slack.customerSays': 'Customer: {text}',
  'handoff.slack.customerLeft': 'The customer ended the conversation.',
  'handoff.slack.notDelivered': 'Could not reach the customer with that message.',
  'handoff.slack.closed':
    'The conversation is closed — this reply did not reach the customer. Reopen? (They get it then.)',
  'handoff.slack.reopen': 'Reopen',
  'handoff.slack.reopened': 'Handoff reopened.',
  'handoff.slack.reopenedBy': 'Reopened by {user}: the replies since Resolve go to the customer.',
  'handoff.slack.cannotReopen':
    'Could not reopen: the customer is talking to a person in another thread, or this conversation is gone.',
  'handoff.slack.fileTooLarge': 'The file {name} is over the {megabytes} MB limit: not sent.',
  'handoff.slack.fileNotSent': 'The file {name} could not be fetched from Slack: not sent.',
  'handoff.slack.customerFile': 'Customer sent this file.',
  // Personal data (Data Protection Act No. 3 of 2021): the notice, My data, the staff audit.
  'menu.choice.myData': 'My data',
  'privacy.notice':
    'We keep your number, NRC, name and cover details to sell and serve your cover, up to 500 days after it ends. See or delete them in My data.',
  'privacy.noticeFull':
    'Privacy notice (version 2).\nWho: {controller} controls your data. Its data protection officer: {contact}.\nWhat: your phone number or chat, the answers you give (NRC, names, email, vehicle, trip), your policies and the files you send.\nWhy: to sell and serve your cover, handle your claims and remind you before it ends.\nShared with: your insurer, who issues and keeps your policies; our hosting provider; the SMS gateway that texts you; Telegram, Meta (WhatsApp) or Slack when you use them or ask for a person (staff see NRCs and phone numbers masked).\nAbroad: Telegram, Meta and Slack, and our hosting provider when its servers are abroad, keep data outside Zambia.\nHow long: a conversation 15 minutes, payment details 1 day, files 30 days (the documents of a claim while your insurer reports the claim, and 1 year after), reminder details up to 500 days after your cover ends. After you delete, only a coded fingerprint of your number and NRC, for 2 years, so we do not add them back.\nYour rights: in My data see what we hold, delete it or stop us using it; ask {contact} for a copy or a correction; complain to the Data Protection Commissioner of Zambia (Data Protection Act No. 3 of 2021).',
  'privacy.choice.agree': 'Agree',
  'privacy.choice.decline': 'Decline',
  'privacy.choice.full': 'Full notice',
  'privacy.declined':
    'You declined, so we kept nothing about you. Agree next time you dial to buy or check cover. Goodbye.',
  'privacy.note.notRecorded': 'Sorry, we could not record your answer. Please try again.',
  'mydata.overview':
    'We hold: your number {address}; {nrcCount, plural, =0 {no NRC} one {NRC {nrcs}} other {NRCs {nrcs}}}; {policies, plural, =0 {no policies we track} one {# policy we track} other {# policies we track}}{numbered, plural, =0 {} other { ({policyNumbers})}}; {card, plural, =0 {no reminder card} other {a reminder card}}; {consented, select, yes {privacy notice agreed on {agreedDate, date}} other {no privacy notice agreed}}; {handoffs} open chats with a person; {files} files you sent. Your insurer keeps its own records.',
  'mydata.choice.delete': 'Delete my data',
  'mydata.choice.stop': 'Stop using my data',
  'mydata.confirmDelete':
    'Delete what we hold about you: conversations, reminder card, chats with a person, files? Your policies stay with the insurer.',
  'mydata.choice.yesDelete': 'Yes, delete',
  'mydata.confirmStop':
    'Stop using your data? We delete what we hold, reminders stop, and we ask you again next time. Your policies stay with the insurer.',
  'mydata.choice.yesStop': 'Yes, stop',
  'mydata.deleted':
    'Deleted. {paymentsKept, plural, =0 {} other {A payment in progress is kept until it ends (1 day at most). }}Your insurer keeps its records of your policies.',
  'mydata.stopped':
    'Done: we deleted your data and will not use it; reminders are off. {paymentsKept, plural, =0 {} other {A payment in progress is kept until it ends (1 day at most). }}Your insurer keeps its records.',
  'mydata.failed': 'Sorry, we could not finish deleting your data. Please try again later.',
  'mydata.receipt.deleted':
    'Receipt: on your request we deleted the data insurechat held about this number. Your insurer keeps its records of your policies.',
  'mydata.receipt.stopped':
    'Receipt: on your request insurechat stopped using this number, deleted what it held and turned reminders off. Your insurer keeps its records.',
  'slack.audit.header': '*Latest staff look-ups* (newest first)',
  'slack.audit.entry': '{at} · {who} · {via} · {what}',
  'slack.audit.entry.refused': '{at} · {who} · {via} · *refused* · {what}',
  'slack.audit.via.command': 'command',
  'slack.audit.via.modal': 'lookup form',
  'slack.audit.via.button': 'button',
  'slack.audit.via.home': 'App Home',
  'slack.audit.empty': 'No staff look-ups are recorded.',
  'slack.audit.refused': "Only the desk's admins may read the audit of staff look-ups.",
  'slack.audit.verify.intact':
    'The audit chain is intact: {entries, plural, =0 {no look-ups recorded yet} one {# look-up verified} other {# look-ups verified}}, none missing or altered.',
  'slack.audit.verify.broken':
    '*The audit chain is broken* ({entries, plural, one {# entry} other {# entries}} checked):',
  'slack.audit.break.gap':
    '• gap after {at}: {missing, plural, one {# entry} other {# entries}} deleted',
  'slack.audit.break.trimmed':
    '• entries trimmed without a checkpoint: the oldest {missing, plural, one {entry} other {# entries}} before {at} removed',
  'slack.audit.break.newest':
    '• newest {missing, plural, one {entry} other {# entries}} missing (after {at})',
  'slack.audit.break.altered': '• the entry of {at} was altered',
  'slack.audit.break.headMissing': '• the head record is missing: the chain cannot be checked',
  'slack.audit.break.headAltered': '• the head record was altered or wound back',
  'slack.audit.unavailable':
    'The look-up could not be written to the audit, so it was not made. Please try again.',

  // language: the caller's choice of language (src/conversation/language.ts); the screen names
  // each language in itself, so it reads the same in every catalogue
  'language.pick': 'Language / Ululimi / Chiyankhulo:',
  'language.changed': 'Your language is now English.',
  'menu.choice.language': 'Language',
  'telegram.command.language': 'Change the language',

  // status words: the insurer's statuses in the customer's words (flows/status-words.ts)
  'status.inForce': 'in force',
  'status.inGrace': 'in grace, premium due',
  'status.inGraceUntil': 'in grace until {until, date}',
  'status.waitingPremium': 'waiting for the premium',
  'status.lapsed': 'lapsed, premium unpaid',
  'status.offCover': 'off cover',
  'status.ended': 'ended',
  'status.cancelled': 'cancelled',
  'status.notIssued': 'not issued yet',
  'status.claimReceived': 'claim received',
  'status.documentsReceived': 'documents received',
  'status.paymentPending': 'waiting for payment',
  'status.paid': 'paid',
  'status.paymentFailed': 'payment failed',
  'status.claimHandled': 'the insurer is handling this claim ({insurerStatus})',
  'status.unconfirmed': 'we could not confirm this cover - call the insurer',
  'status.notCheckedNow': 'cannot be checked now',

  // what is bought, as a payment's item and a reminder keep it (flows' purchaseOf, tripOf): a
  // message in no language until rendered (src/conversation/nested-message.ts)
  'what.motor': '{product} for {plate}',
  'what.motorCover': 'Motor cover for {plate}',
  'what.renewal': 'renewal of {policyNumber}',
  'what.renewalOfPlate': 'renewal of {policyNumber} ({plate})',
  'what.travel': '{product} to {destination}',
  'what.travelCover': 'Travel cover to {destination}',
  'what.line.motor': 'Motor',
  'what.line.travel': 'Travel',
  'what.line.life': 'Life',
  'what.line.funeral': 'Funeral',
  'what.line.group-life': 'Group life',
  'what.line.credit-life': 'Loan',
  'travel.packageOption': '{product}: {currency} {amount}',

  // the insurer's own words in the caller's (src/conversation/insurer-words.ts): each word the
  // mapping knows; English keeps the insurer's spelling, a word not listed is shown as it came
  'insurer.product.motorThirdParty': 'Motor Third Party',
  'insurer.product.motorFireTheft': 'Motor Third Party, Fire and Theft',
  'insurer.product.motorComprehensive': 'Motor Comprehensive',
  'insurer.product.africaExplorer': 'Africa Explorer',
  'insurer.product.worldwideStandard': 'Worldwide Standard',
  'insurer.product.termLife': 'Term Life',
  'insurer.product.funeralPlan': 'Funeral Plan',
  'insurer.product.creditLife': 'Credit Life Cover',
  'insurer.product.householders': 'Householders',
  'insurer.product.crop': 'Crop Insurance',
  'insurer.period.days': '{count, plural, one {# day} other {# days}}',
  'insurer.period.weeks': '{count, plural, one {# week} other {# weeks}}',
  'insurer.period.months': '{count, plural, one {# month} other {# months}}',
  'insurer.period.quarters': '{count, plural, one {# quarter} other {# quarters}}',
  'insurer.period.years': '{count, plural, one {# year} other {# years}}',
  'insurer.scope.death': 'Death',
  'insurer.scope.disability': 'Permanent disability',
  'insurer.scope.retrenchment': 'Retrenchment',
  'insurer.document.deathCertificate': 'Death certificate',
  'insurer.document.loanStatement': 'Loan statement',
  'insurer.document.medicalReport': 'Medical report',
  'insurer.document.terminationLetter': 'Termination letter',
  'insurer.document.policyWording': 'Policy wording',
  'insurer.document.burialPermit': 'Burial permit',
  'insurer.document.nrcCopy': 'Copy of NRC',
  'insurer.category.private': 'Private',
  'insurer.category.commercial': 'Commercial',
  'insurer.category.psv': 'Public Service Vehicle',
  'insurer.reason.declined': 'The customer declined the payment prompt',
  'insurer.reason.insufficientFunds': 'Insufficient funds',
  'insurer.reason.expired': 'The payment prompt expired without an answer',
  'insurer.reason.failed': 'Failed',
  'insurer.claimStatus.underReview': 'Under review',
  'insurer.claimStatus.assessed': 'Assessed',
  'insurer.claimStatus.approved': 'Approved',
  'insurer.claimStatus.settled': 'Settled',
  'insurer.claimStatus.paid': 'Paid',
  'insurer.claimStatus.rejected': 'Rejected',
  'insurer.claimStatus.declined': 'Declined',
  'insurer.claimStatus.closed': 'Closed',
  'insurer.relationship.principal': 'Principal',
  'insurer.relationship.spouse': 'Spouse',
  'insurer.relationship.child': 'Child',
  'insurer.relationship.parent': 'Parent',
  'insurer.relationship.other': 'Other',
  // the insurer's refusals (`{said}`), as the sandbox words them
  'insurer.refusal.vehicleElsewhere': 'The vehicle is registered to another client.',
  'insurer.refusal.alreadyRegistered': 'Already registered.',
  'insurer.refusal.alreadyUsed': 'Already used.',
  'insurer.refusal.required': 'Required.',
  'insurer.refusal.expectedDate': 'Expected a date.',
  'insurer.refusal.expectedMobile': 'Expected a Zambian mobile number such as 0971234567.',
  'insurer.refusal.endAfterStart': 'Must be after the start date.',
  'insurer.refusal.endAfterPolicyEnd': 'The new end date must be after the policy end date.',
  'insurer.refusal.noPremiumYet': 'No premium has been received for this policy yet.',
  'insurer.refusal.lossInFuture': 'The loss date is in the future.',
  'insurer.refusal.loanNotOnRisk': 'The loan is not on risk yet.',
  'insurer.refusal.loanOffCover': 'The loan was off cover on the loss date.',
  'insurer.refusal.lossBeforeCover':
    'The loss date is before the loan and its policy went on cover.',
  'insurer.refusal.lossInLapse':
    'The loss date falls in a lapsed period; that loss stays uncovered.',
  'insurer.refusal.memberPending': 'The member is in a Pending batch and not covered.',
  'insurer.refusal.memberOffCover': 'The member was off cover on the date of death.',
  'insurer.refusal.beforePolicyStart': 'Before the policy start date.',
  'insurer.refusal.lateNotice':
    'Claims must be intimated within {allowed} days of the loss; this loss was {days} days ago.',
  'insurer.refusal.alreadyPaid': 'This is already paid (reference {reference}).',

  // limits (src/limits): when to try again after "asked too often"
  'limits.note.hour': 'Please try again in an hour.',
  'limits.note.day': 'Please try again tomorrow.',
  'limits.note.later': 'We cannot do this right now. Please try again later.',

  // Short titles (`<key>.short`): a WhatsApp list row's title holds 24 characters, so where a
  // choice's words can be longer the row shows this and the whole label as its description.
  // A record's row is titled by its number.
  'menu.choice.renew.short': 'Renew my policy',
  'menu.choice.renewList.short': 'Renew cover ({count} due)',
  'menu.choice.renewal.short': '{policyNumber}',
  'motor.choice.sendCode.short': 'Send code to {phone}',
  'motor.choice.newHolder.short': 'Go on as a new holder',
  'claim.choice.groupLife.short': 'Death of a member',
  'claim.choice.held.short': 'Claim on my cover',
  // The travel package's own line (travel.packageOption) where it is keyed.
  'travel.packageOption.short': '{product}',
  'claim.held.credit-life.short': '{number}',
  'claim.held.group-life.short': '{number}',
  'claim.line.short': '{number}',
  'cover.line.motor.short': '{number}',
  'cover.line.travel.short': '{number}',
  'cover.line.life.short': '{number}',
  'cover.line.funeral.short': '{number}',
  'cover.line.groupLife.short': '{number}',
  'cover.line.creditLife.short': '{number}',
} as const satisfies Record<string, string>;

/** Every message key the catalogue knows. */
export type MessageKey = keyof typeof en;
